/* Instrumentation: every guest instruction appends a record to a word buffer, with plain IR stores.
 *
 * Everything that does not change between executions (address, length, class, register masks, operand sizes,
 * direct targets) is worked out here, once per translation, into a static info that the C++ runtime owns. At run
 * time an instruction stores only the pointer to its info (with its exits' outcomes in the low bits), the
 * addresses of its memory operands, and, for indirect branches, the target: a few stores, no helper call. The
 * buffer (nb_buffer.c) is handed to the emulator in batches: when a block might not fit, and (through nb_flush)
 * before anything that must see the emulator exact.
 *
 * The buffer pointer is committed only once an instruction has completed (before the next instruction that can
 * fault, at branch exits and at the block's end), so an instruction that faults is not counted and every
 * instruction before it is.
 *
 * Conditional-branch chasing is off (nb_main.c): VEX's "&&" recovery would otherwise fold a branch and up to three
 * following instructions into one guarded block whose instructions may not run, which records cannot express.
 *
 * While the program arms PEBS, the records of the instructions PEBS can sample also carry the registers at the
 * instruction's start, for the PEBS record (see "Register snapshots" below). */
#include "pub_tool_basics.h"
#include "pub_tool_hashtable.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_transtab.h"

#include "emulator/valgrind/nb_guest.h"
#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

/* ---- Register snapshots ----------------------------------------------------------------------------------------
 * A PEBS record holds EFLAGS, EIP and the general registers at the start of the sampled instruction. While the
 * program has PEBS armed (nb_rt_pebs_armed), each instruction that PEBS can sample (one with a memory operand, a
 * branch, x87/MMX/SSE work: nb_class_sampled_without_memory) calls nb_snapshot_registers at its start, which copies
 * the guest state into the instruction's record; the other translations, and every translation while PEBS is off,
 * have no such call. Arming or disarming discards every translation, so that the code runs from translations of
 * the new kind.
 *
 * The guest state in memory is exact at every instruction's start here: the call declares what it reads (every
 * register the snapshot copies), so the optimiser that runs on the instrumented block ("Optimising the
 * instrumented block" below) keeps every PUT of those registers before it. The preciseness setting
 * (VG_(clo_vex_control).iropt_register_updates_default) is not needed, and could not be switched at run time
 * anyway: LibVEX_Init copies VG_(clo_vex_control) when the first block is translated. */

static Bool nb_snapshots = False;        /* translations made now carry snapshots */
static Bool nb_snapshots_stale = False;  /* whether PEBS is armed may have changed since it was last asked */
static ULong nb_stat_snapshot_switches;

/* EFLAGS bit 1 reads as 1, and user code runs with interrupts enabled (IF, bit 9); VEX keeps neither. */
#define NB_RFLAGS_ALWAYS_SET 0x202ull

/* out[]: RegisterSnapshot's order, the 64-bit PEBS record's. An i386 guest has no R8-R15: they read 0. */
static void nb_snapshot_registers(NbGuestState* gs, ULong* out, UWord pc) {
    out[0] = NB_GUEST_EFLAGS(gs) | NB_RFLAGS_ALWAYS_SET;
    out[1] = pc;
#if defined(VGA_x86)
    out[2] = gs->guest_EAX;
    out[3] = gs->guest_EBX;
    out[4] = gs->guest_ECX;
    out[5] = gs->guest_EDX;
    out[6] = gs->guest_ESI;
    out[7] = gs->guest_EDI;
    out[8] = gs->guest_EBP;
    out[9] = gs->guest_ESP;
    for (UInt r = 10; r < NB_SNAPSHOT_WORDS; r++) out[r] = 0;
#else
    out[2] = gs->guest_RAX;
    out[3] = gs->guest_RBX;
    out[4] = gs->guest_RCX;
    out[5] = gs->guest_RDX;
    out[6] = gs->guest_RSI;
    out[7] = gs->guest_RDI;
    out[8] = gs->guest_RBP;
    out[9] = gs->guest_RSP;
    out[10] = gs->guest_R8;
    out[11] = gs->guest_R9;
    out[12] = gs->guest_R10;
    out[13] = gs->guest_R11;
    out[14] = gs->guest_R12;
    out[15] = gs->guest_R13;
    out[16] = gs->guest_R14;
    out[17] = gs->guest_R15;
#endif
}

void nb_snapshots_recheck(void) { nb_snapshots_stale = True; }

void nb_snapshots_follow_pebs(void) {
    if (!nb_snapshots_stale) return;
    nb_snapshots_stale = False;
    const Bool armed = nb_rt_pebs_armed() != 0;
    if (armed == nb_snapshots) return;
    nb_flush();
    nb_snapshots = armed;
    nb_stat_snapshot_switches++;
    VG_(discard_translations_safely)((Addr)0x1000, ~(SizeT)0xfff, "netburst: PEBS armed or disarmed");
}

/* ---- Static infos, per translation --------------------------------------------------------------------------- */

typedef struct {
    struct _VgHashNode* next;
    UWord key;        /* the translation's nraddr */
    void* infos;      /* nb_rt_block_new */
} BlockNode;

static VgHashTable* nb_blocks;
static ULong nb_stat_translations, nb_stat_unknown, nb_stat_folded_branches;
static ULong nb_stat_decoded, nb_stat_ir_reads, nb_stat_write_disagreements;

void nb_instrument_init(void) { nb_blocks = VG_(HT_construct)("netburst.blocks"); }

void nb_discard_superblock(Addr orig_addr, VexGuestExtents extents) {
    (void)extents;
    BlockNode* n = VG_(HT_remove)(nb_blocks, orig_addr);
    if (!n) return;
    nb_flush();  /* buffered records may point at these infos */
    nb_rt_block_free(n->infos);
    VG_(free)(n);
}

void nb_instrument_stats(void) {
    VG_(umsg)("netburst: %llu translations, %llu instructions of unknown encoding, %llu folded branches\n",
              nb_stat_translations, nb_stat_unknown, nb_stat_folded_branches);
    VG_(umsg)("netburst: register reads of %llu translated instructions from their bytes, %llu from the IR (an "
              "encoding the operand decoder does not know); writes that the bytes and the IR disagree on: %llu\n",
              nb_stat_decoded, nb_stat_ir_reads, nb_stat_write_disagreements);
    VG_(umsg)("netburst: register snapshots (PEBS) switched on or off %llu times\n", nb_stat_snapshot_switches);
}

/* ---- Analysis ------------------------------------------------------------------------------------------------ */

typedef struct {
    Int first, end;        /* statements [first, end) of sb_in, the IMark included */
    struct nb_x86_insn k;  /* its bytes, decoded once */
    struct nb_insn_desc d;
    Int kind;              /* nb_class_kind */
    Int mem_seen;          /* memory accesses in the IR (all of them; the first two are recorded) */
    Int relevant_exits;    /* exits that are the branch (or the rep) itself */
    Bool faultable;        /* may leave through a fault or an emulation exit */
    Bool recorded;         /* not Valgrind's special sequence */
    Bool snapshot;         /* its record ends with the registers at its start (PEBS armed) */
    UInt off, words;       /* its record in the block's slice of the buffer */
    Int head;              /* the instruction whose record it shares (itself when it has its own) */
    ULong info;            /* record word 0, exits clear */
} Insn;

typedef struct {
    Insn* insns;
    Int n;
    ULong* put_bits;       /* per tmp: the registers it was PUT to */
    ULong* get_bits;       /* per tmp: the registers its defining expression read */
    Int* def_insn;         /* per tmp: the instruction that defined it */
    Int cur;
    ULong expr_gets;       /* registers GET by the statement being scanned */
} Scan;

/* The registers behind a guest-state slice, as RegMask bits. */
static ULong reg_bits(Int offset, Int size) {
    ULong bits = 0;
    const Int end = offset + size;
#define OVERLAPS(field, len) (offset < (Int)NB_GUEST_FIELD(field) + (len) && end > (Int)NB_GUEST_FIELD(field))
    const Int gpr0 = NB_GUEST_GPR0, w = NB_WORD_BYTES;
    /* the general registers are in x86 encoding order, a word apart */
    for (UInt r = 0; r < NB_GUEST_GPRS; r++)
        if (offset < gpr0 + (Int)(w * r) + w && end > gpr0 + (Int)(w * r)) bits |= nb_reg_gpr(r);
    if (OVERLAPS(CC_OP, w) || OVERLAPS(CC_DEP1, w) || OVERLAPS(CC_DEP2, w) || OVERLAPS(CC_NDEP, w) ||
        OVERLAPS(DFLAG, w) || OVERLAPS(IDFLAG, w) || OVERLAPS(ACFLAG, w))
        bits |= nb_reg_flags();
    const Int vec0 = NB_GUEST_VEC0, vw = NB_GUEST_VEC_BYTES;
    for (UInt r = 0; r < NB_GUEST_VECS; r++)
        if (offset < vec0 + (Int)(vw * r) + vw && end > vec0 + (Int)(vw * r)) bits |= nb_reg_xmm(r);
    if (OVERLAPS(FTOP, 4) || OVERLAPS(FPREG, 64) || OVERLAPS(FPTAG, 8) || OVERLAPS(FPROUND, w) ||
        OVERLAPS(FC3210, w))
        bits |= nb_reg_x87();
#undef OVERLAPS
    return bits;
}

static void scan_expr(Scan* s, IRExpr* e) {
    Insn* in = &s->insns[s->cur];
    switch (e->tag) {
    case Iex_Get: {
        const ULong bits = reg_bits(e->Iex.Get.offset, sizeofIRType(e->Iex.Get.ty));
        in->d.reads |= bits;
        s->expr_gets |= bits;
        break;
    }
    case Iex_GetI:
        in->d.reads |= nb_reg_x87();  /* the x87 register file and tags are the only indexed state */
        scan_expr(s, e->Iex.GetI.ix);
        break;
    case Iex_RdTmp: {
        /* iropt removes a GET whose value the block already holds in a tmp: the register an earlier instruction
         * PUT the tmp to, or else the registers the tmp was read from, are read all the same. */
        const IRTemp t = e->Iex.RdTmp.tmp;
        if (s->def_insn[t] < s->cur) in->d.reads |= s->put_bits[t] ? s->put_bits[t] : s->get_bits[t];
        break;
    }
    case Iex_Qop:
        scan_expr(s, e->Iex.Qop.details->arg1);
        scan_expr(s, e->Iex.Qop.details->arg2);
        scan_expr(s, e->Iex.Qop.details->arg3);
        scan_expr(s, e->Iex.Qop.details->arg4);
        break;
    case Iex_Triop:
        scan_expr(s, e->Iex.Triop.details->arg1);
        scan_expr(s, e->Iex.Triop.details->arg2);
        scan_expr(s, e->Iex.Triop.details->arg3);
        break;
    case Iex_Binop:
        scan_expr(s, e->Iex.Binop.arg1);
        scan_expr(s, e->Iex.Binop.arg2);
        break;
    case Iex_Unop:
        scan_expr(s, e->Iex.Unop.arg);
        break;
    case Iex_Load:
        scan_expr(s, e->Iex.Load.addr);
        break;
    case Iex_ITE:
        scan_expr(s, e->Iex.ITE.cond);
        scan_expr(s, e->Iex.ITE.iftrue);
        scan_expr(s, e->Iex.ITE.iffalse);
        break;
    case Iex_CCall:
        for (Int i = 0; e->Iex.CCall.args[i]; i++) scan_expr(s, e->Iex.CCall.args[i]);
        break;
    default:
        break;
    }
}

static void define_tmp(Scan* s, IRTemp t) {
    if (t == IRTemp_INVALID) return;
    s->def_insn[t] = s->cur;
    s->get_bits[t] = s->expr_gets;
}

/* A memory access of the current instruction: the first two are recorded. */
static void add_access(Insn* in, Int size, Bool store) {
    if (in->d.num_mem < 2) {
        const Int k = in->d.num_mem++;
        in->d.mem_size[k] = (UChar)(size > 16 ? 16 : size);  /* wider (fxsave, xsave) is clamped to 16 bytes */
        in->d.mem_store[k] = store ? 1 : 0;
    }
    in->mem_seen++;
    in->faultable = True;
}

static Int loadg_size(IRLoadGOp cvt) {
    IRType wide, narrow;
    typeOfIRLoadGOp(cvt, &wide, &narrow);
    return sizeofIRType(narrow);
}

static void scan_stmt(Scan* s, IRSB* sb, IRStmt* st) {
    Insn* in = &s->insns[s->cur];
    s->expr_gets = 0;
    switch (st->tag) {
    case Ist_WrTmp:
        scan_expr(s, st->Ist.WrTmp.data);
        if (st->Ist.WrTmp.data->tag == Iex_Load)
            add_access(in, sizeofIRType(st->Ist.WrTmp.data->Iex.Load.ty), False);
        define_tmp(s, st->Ist.WrTmp.tmp);
        break;
    case Ist_Put: {
        IRExpr* data = st->Ist.Put.data;
        const ULong bits = reg_bits(st->Ist.Put.offset, sizeofIRType(typeOfIRExpr(sb->tyenv, data)));
        scan_expr(s, data);
        in->d.writes |= bits;
        if (data->tag == Iex_RdTmp) s->put_bits[data->Iex.RdTmp.tmp] |= bits;
        break;
    }
    case Ist_PutI:
        scan_expr(s, st->Ist.PutI.details->ix);
        scan_expr(s, st->Ist.PutI.details->data);
        in->d.writes |= nb_reg_x87();
        break;
    case Ist_Store:
        scan_expr(s, st->Ist.Store.addr);
        scan_expr(s, st->Ist.Store.data);
        add_access(in, sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.Store.data)), True);
        break;
    case Ist_StoreG:
        scan_expr(s, st->Ist.StoreG.details->addr);
        scan_expr(s, st->Ist.StoreG.details->data);
        scan_expr(s, st->Ist.StoreG.details->guard);
        add_access(in, sizeofIRType(typeOfIRExpr(sb->tyenv, st->Ist.StoreG.details->data)), True);
        break;
    case Ist_LoadG:
        scan_expr(s, st->Ist.LoadG.details->addr);
        scan_expr(s, st->Ist.LoadG.details->alt);
        scan_expr(s, st->Ist.LoadG.details->guard);
        add_access(in, loadg_size(st->Ist.LoadG.details->cvt), False);
        define_tmp(s, st->Ist.LoadG.details->dst);
        break;
    case Ist_CAS: {
        IRCAS* cas = st->Ist.CAS.details;
        const Int size = sizeofIRType(typeOfIRExpr(sb->tyenv, cas->dataLo)) * (cas->dataHi ? 2 : 1);
        scan_expr(s, cas->addr);
        if (cas->expdHi) scan_expr(s, cas->expdHi);
        scan_expr(s, cas->expdLo);
        if (cas->dataHi) scan_expr(s, cas->dataHi);
        scan_expr(s, cas->dataLo);
        add_access(in, size, False);  /* compare-and-swap reads, then writes, the same location */
        add_access(in, size, True);
        define_tmp(s, cas->oldLo);
        define_tmp(s, cas->oldHi);
        break;
    }
    case Ist_LLSC:
        in->faultable = True;  /* not generated for x86 guests */
        define_tmp(s, st->Ist.LLSC.result);
        break;
    case Ist_Dirty: {
        IRDirty* d = st->Ist.Dirty.details;
        scan_expr(s, d->guard);
        for (Int i = 0; d->args[i]; i++)
            if (!is_IRExpr_VECRET_or_GSPTR(d->args[i])) scan_expr(s, d->args[i]);
        if (d->mFx != Ifx_None) {
            scan_expr(s, d->mAddr);
            if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify) add_access(in, d->mSize, False);
            if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify) add_access(in, d->mSize, True);
        }
        for (Int i = 0; i < d->nFxState; i++) {
            for (Int r = 0; r <= d->fxState[i].nRepeats; r++) {
                const ULong bits = reg_bits(d->fxState[i].offset + r * d->fxState[i].repeatLen, d->fxState[i].size);
                if (d->fxState[i].fx != Ifx_Write) in->d.reads |= bits;
                if (d->fxState[i].fx != Ifx_Read) in->d.writes |= bits;
            }
        }
        in->faultable = True;
        define_tmp(s, d->tmp);
        break;
    }
    case Ist_Exit: {
        scan_expr(s, st->Ist.Exit.guard);
        const Bool branchy = st->Ist.Exit.jk == Ijk_Boring &&
                             (in->kind == NB_CLASS_COND_BRANCH || in->d.rep_mode != NB_REP_NONE);
        if (branchy && in->relevant_exits < 2) in->relevant_exits++;
        else in->faultable = True;
        break;
    }
    default:
        break;
    }
}

/* An exit that leaves after the instruction has completed: VEX checks some x87/SSE control-word loads (fldcw,
 * fldenv, ldmxcsr) after doing them and, when the new mode is one it cannot emulate exactly (round to zero, for
 * instance), leaves the block for the next instruction with an emulation warning. The instruction retired; its
 * record must be committed on that path, or it is lost (PAPI's validation test papi_tot_ins found this: its fldcw
 * loop counted 8 instructions per iteration instead of 9). */
static Bool is_completing_exit(const Insn* in, IRStmt* st) {
    return st->tag == Ist_Exit && st->Ist.Exit.jk == Ijk_EmWarn && st->Ist.Exit.dst->tag == NB_WORD_CONST_TAG &&
           NB_WORD_CONST_VALUE(st->Ist.Exit.dst) == in->d.pc + in->d.length;
}

static void show_encoding(const HChar* what, const Insn* in, const UChar* bytes, UInt len, ULong bytes_say,
                          ULong ir_says) {
    HChar hex[3 * 16 + 1];
    for (UInt k = 0; k < len && k < 16; k++) VG_(sprintf)(hex + 3 * k, "%02x ", bytes[k]);
    hex[3 * (len < 16 ? len : 16)] = 0;
    VG_(umsg)("netburst: %s: %#llx: %s(bytes %#llx, IR %#llx)\n", what, (ULong)in->d.pc, hex, bytes_say, ir_says);
}

/* An instruction's register reads come from its bytes (x86_instruction.h) whenever the opcode table knows the
 * encoding: the IR's GETs cannot give them, because VEX's minimal optimisation, which runs even at level 0,
 * replaces a GET by a temporary an earlier instruction of the superblock defined, or by a constant, so a read
 * seen in the IR depends on where the block was cut. The IR-derived reads (scan_expr) remain for the encodings
 * the decoder does not know. Writes and memory accesses stay the IR's: at level 0 every PUT and load is kept;
 * except the x87 and MMX registers, which VEX keeps in one indexed array behind TOP (PUTI), so that the IR cannot
 * say which stack register an instruction wrote: those writes are the decoder's (st(i) from TOP, mmN, TOP's moves).
 * Where the decoder has an idea of the writes too, a disagreement is counted for -v -v (and shown with -v -v -v). */
static void take_reads_from_bytes(Insn* in, const UChar* bytes, UInt len) {
    if (!in->k.operands_known) {
        nb_stat_ir_reads++;
        if (VG_(clo_verbosity) > 2) show_encoding("reads from the IR", in, bytes, len, 0, 0);
        return;
    }
    nb_stat_decoded++;
    in->d.reads = in->k.reads;
    in->d.address = in->k.address;
    in->d.writes = (in->d.writes & ~nb_reg_x87_all()) | (in->k.writes & nb_reg_x87_all());
    if (in->k.writes != in->d.writes) {
        nb_stat_write_disagreements++;
        if (VG_(clo_verbosity) > 2) show_encoding("writes differ", in, bytes, len, in->k.writes, in->d.writes);
    }
}

/* Which exits of an instruction are its own (the branch, or the rep termination and continuation). */
static Bool is_relevant_exit(const Insn* in, IRStmt* st, Int nth_boring) {
    return st->tag == Ist_Exit && st->Ist.Exit.jk == Ijk_Boring && nth_boring < in->relevant_exits;
}

static void analyse(Scan* s, IRSB* sb) {
    for (Int i = 0; i < s->n; i++) {
        Insn* in = &s->insns[i];
        IRStmt* mark = sb->stmts[in->first];
        const Addr pc = mark->Ist.IMark.addr;
        const UInt len = mark->Ist.IMark.len;
        nb_decode_insn((const UChar*)pc, len, nb_clo.model >= 3, &in->k);
        in->recorded = !in->k.special && len >= 1 && len <= 15;
        in->d.pc = pc;
        in->d.length = (UChar)len;
        in->d.cls = in->k.cls;
        in->d.form = in->k.form;
        in->d.imm_bits = in->k.imm_bits;
        in->d.rep_mode = in->k.rep_mode;
        in->kind = nb_class_kind(in->k.cls);
        if (in->k.has_rel) in->d.target = pc + len + (Long)in->k.rel;
        if (!in->k.known && in->recorded) nb_stat_unknown++;
        s->cur = i;
        for (Int j = in->first + 1; j < in->end; j++) scan_stmt(s, sb, sb->stmts[j]);
        if (in->kind == NB_CLASS_INT_DIV) in->faultable = True;  /* #DE */
        if (in->recorded) take_reads_from_bytes(in, (const UChar*)pc, len);
    }
    /* Branch outcomes that the IR fixes, and the block's end. */
    Int last = s->n - 1;
    while (last >= 0 && !s->insns[last].recorded) last--;
    for (Int i = 0; i < s->n; i++) {
        Insn* in = &s->insns[i];
        if (!in->recorded) continue;
        if (in->kind == NB_CLASS_COND_BRANCH) {
            if (in->relevant_exits > 0) {
                /* The first relevant exit goes either to the target (exit taken = branch taken) or, when VEX laid
                 * the branch out the other way round, to the fall-through. */
                IRStmt* exit = NULL;
                for (Int j = in->first + 1; j < in->end && !exit; j++)
                    if (sb->stmts[j]->tag == Ist_Exit && sb->stmts[j]->Ist.Exit.jk == Ijk_Boring) exit = sb->stmts[j];
                const ULong dst = NB_WORD_CONST_VALUE(exit->Ist.Exit.dst);
                in->d.branch_mode = dst == in->d.pc + in->d.length && dst != in->d.target ? NB_BR_EXIT_NOT_TAKEN
                                                                                         : NB_BR_EXIT_TAKEN;
            } else {
                /* iropt folded the condition: the block's end says where it went. */
                nb_stat_folded_branches++;
                const Bool known_next = i == last && sb->next->tag == Iex_Const;
                in->d.branch_mode = known_next && NB_WORD_CONST_VALUE(sb->next->Iex.Const.con) == in->d.target
                                        ? NB_BR_STATIC_TAKEN : NB_BR_STATIC_NOT_TAKEN;
            }
        }
        if (in->kind == NB_CLASS_INDIRECT) {
            if (i == last && sb->next->tag != Iex_Const) in->d.dynamic_target = 1;
            else if (i == last) in->d.target = NB_WORD_CONST_VALUE(sb->next->Iex.Const.con);
        }
    }
}

/* ---- Optimising the instrumented block ------------------------------------------------------------------------
 * VEX optimises a block before the tool sees it, which the analysis above cannot have (nb_main.c sets level 0).
 * The block is therefore optimised here, once instrumented, at the level the user asked for: the records are made
 * from the level-0 IR and stored from values the optimised block still computes, so they do not change, while the
 * guest's own code loses what level 0 keeps: register writes a later one overwrites, registers read back from the
 * guest state, and above all the flag helpers, which the optimiser specialises into inline compares (at level 0 a
 * conditional branch calls amd64g_calculate_condition, or x86g_calculate_condition, which computes every flag). A
 * dead load is removed then, as under any other tool; its record keeps its address.
 *
 * These are libvex's own entry points (its ir_opt.h, guest_amd64_defs.h and guest_x86_defs.h), outside the tool
 * interface, so the declarations below are checked against one release only: Valgrind 3.19, Debian 12's tool SDK.
 * With another SDK the block runs as instrumented, unoptimised (correct, slower), until someone compares those
 * headers and widens the test. vex_control is libvex's copy of the VEX options, taken when the first block was translated:
 * its level is raised only while the tool's block is optimised. */
#ifndef __VALGRIND_MAJOR__
#error "valgrind.h (through pub_tool_basics.h) should say which Valgrind this is"
#endif
#if __VALGRIND_MAJOR__ == 3 && __VALGRIND_MINOR__ == 19
#define NB_OPTIMISE_INSTRUMENTED 1
extern VexControl vex_control;
extern IRSB* do_iropt_BB(IRSB* bb, IRExpr* (*spec_helper)(const HChar*, IRExpr**, IRStmt**, Int),
                         Bool (*precise_mem_exns)(Int, Int, VexRegisterUpdates), VexRegisterUpdates px_control,
                         Addr guest_addr, VexArch guest_arch);
#if defined(VGA_x86)
#define NB_SPECHELPER guest_x86_spechelper
#define NB_PRECISE_MEM_EXNS guest_x86_state_requires_precise_mem_exns
#else
#define NB_SPECHELPER guest_amd64_spechelper
#define NB_PRECISE_MEM_EXNS guest_amd64_state_requires_precise_mem_exns
#endif
extern IRExpr* NB_SPECHELPER(const HChar* function_name, IRExpr** args, IRStmt** preceding_stmts,
                             Int n_preceding_stmts);
extern Bool NB_PRECISE_MEM_EXNS(Int min_offset, Int max_offset, VexRegisterUpdates px);
#else
#define NB_OPTIMISE_INSTRUMENTED 0
#endif

static Int nb_iropt_level = 2;

void nb_instrument_set_iropt_level(Int level) { nb_iropt_level = level; }

static IRSB* optimise(IRSB* sb, Addr guest_addr) {
#if NB_OPTIMISE_INSTRUMENTED
    if (nb_iropt_level <= 0) return sb;
    const Int level = vex_control.iropt_level;
    vex_control.iropt_level = nb_iropt_level;
    sb = do_iropt_BB(sb, NB_SPECHELPER, NB_PRECISE_MEM_EXNS, VG_(clo_vex_control).iropt_register_updates_default,
                     guest_addr, NB_VEX_ARCH);
    vex_control.iropt_level = level;
#else
    (void)guest_addr;
#endif
    return sb;
}

/* ---- Emission ------------------------------------------------------------------------------------------------ */

/* Records are 64-bit words (nb_runtime.h); buffer positions, guest addresses and targets are one word of the tool's
 * platform (nb_guest.h), widened as they are stored. */
static IRExpr* mk_u64(ULong v) { return IRExpr_Const(IRConst_U64(v)); }

static IRTemp emit_tmp(IRSB* out, IRType ty, IRExpr* e) {
    IRTemp t = newIRTemp(out->tyenv, ty);
    addStmtToIRSB(out, IRStmt_WrTmp(t, e));
    return t;
}

/* A word-typed atom as a record word. */
static IRExpr* record_word(IRSB* out, IRExpr* word) {
    IRExpr* wide = nb_widen_word(word);
    return wide == word ? word : IRExpr_RdTmp(emit_tmp(out, Ity_I64, wide));
}

/* The address of record word `word` after base. */
static IRExpr* buffer_at(IRSB* out, IRTemp base, UInt word) {
    if (word == 0) return IRExpr_RdTmp(base);
    return IRExpr_RdTmp(emit_tmp(out, NB_WORD_TY, IRExpr_Binop(NB_IOP_ADD, IRExpr_RdTmp(base), nb_word(8ull * word))));
}

/* buffer[base + word] = data (a 64-bit atom) */
static void emit_word(IRSB* out, IRTemp base, UInt word, IRExpr* data) {
    addStmtToIRSB(out, IRStmt_Store(Iend_LE, buffer_at(out, base, word), data));
}

/* nb_buf_ptr = base + words (or, with a guard, base + (guard ? words : otherwise)) */
static void emit_commit(IRSB* out, IRTemp base, UInt words, IRExpr* guard, UInt otherwise) {
    IRExpr* v = IRExpr_Binop(NB_IOP_ADD, IRExpr_RdTmp(base), nb_word(8ull * words));
    if (guard) {
        IRTemp yes = emit_tmp(out, NB_WORD_TY, v);
        IRTemp no = emit_tmp(out, NB_WORD_TY, IRExpr_Binop(NB_IOP_ADD, IRExpr_RdTmp(base), nb_word(8ull * otherwise)));
        v = IRExpr_ITE(guard, IRExpr_RdTmp(yes), IRExpr_RdTmp(no));
    }
    addStmtToIRSB(out, IRStmt_Store(Iend_LE, nb_word((HWord)&nb_buf_ptr), IRExpr_RdTmp(emit_tmp(out, NB_WORD_TY, v))));
}

/* The address of a (possibly guarded) access, as a record word: NB_NO_ACCESS when the guard is false. */
static IRExpr* guarded_address(IRSB* out, IRExpr* addr, IRExpr* guard) {
    IRExpr* word = record_word(out, addr);
    if (!guard || (guard->tag == Iex_Const && guard->Iex.Const.con->Ico.U1)) return word;
    return IRExpr_RdTmp(emit_tmp(out, Ity_I64, IRExpr_ITE(guard, word, mk_u64(NB_NO_ACCESS))));
}

/* buffer[base + word ...] = the registers at this point (the instruction's start), by nb_snapshot_registers. */
static void emit_snapshot(IRSB* out, IRTemp base, UInt word, ULong pc) {
    _Static_assert(NB_GUEST_FIELD(CC_NDEP) == NB_GUEST_FIELD(CC_OP) + 3 * sizeof(UWord),
                   "the flags thunk is four consecutive words");
    IRExpr* addr = buffer_at(out, base, word);
    IRDirty* di = unsafeIRDirty_0_N(0, "nb_snapshot_registers", VG_(fnptr_to_fnentry)(&nb_snapshot_registers),
                                    mkIRExprVec_3(IRExpr_GSPTR(), addr, nb_word(pc)));
    di->mFx = Ifx_Write;
    di->mAddr = addr;
    di->mSize = 8 * NB_SNAPSHOT_WORDS;
    const struct { Int offset, size; } reads[] = {
        {NB_GUEST_GPR0, NB_GUEST_GPRS * NB_WORD_BYTES},  /* the general registers, in encoding order (reg_bits) */
        {NB_GUEST_FIELD(CC_OP), 4 * NB_WORD_BYTES},
        {NB_GUEST_FIELD(DFLAG), NB_WORD_BYTES},
        {NB_GUEST_FIELD(IDFLAG), NB_WORD_BYTES},
        {NB_GUEST_FIELD(ACFLAG), NB_WORD_BYTES},
    };
    di->nFxState = sizeof reads / sizeof reads[0];
    for (Int k = 0; k < di->nFxState; k++) {
        di->fxState[k].fx = Ifx_Read;
        di->fxState[k].offset = reads[k].offset;
        di->fxState[k].size = reads[k].size;
        di->fxState[k].nRepeats = 0;
        di->fxState[k].repeatLen = 0;
    }
    addStmtToIRSB(out, IRStmt_Dirty(di));
}

/* The info word with an exit's outcome in bit `bit`. The info is a host pointer: it fits in a word. */
static IRExpr* info_with_exit(IRSB* out, ULong info, IRExpr* guard, UInt bit) {
    IRExpr* g = IRExpr_RdTmp(emit_tmp(out, NB_WORD_TY, IRExpr_Unop(NB_IOP_1UTOW, guard)));
    if (bit) g = IRExpr_RdTmp(emit_tmp(out, NB_WORD_TY, IRExpr_Binop(NB_IOP_SHL, g, IRExpr_Const(IRConst_U8(bit)))));
    return record_word(out, IRExpr_RdTmp(emit_tmp(out, NB_WORD_TY, IRExpr_Binop(NB_IOP_OR, g, nb_word(info)))));
}

IRSB* nb_instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout* layout,
                    const VexGuestExtents* vge, const VexArchInfo* archinfo_host, IRType gWordTy, IRType hWordTy) {
    (void)layout; (void)archinfo_host;
    if (gWordTy != NB_WORD_TY || hWordTy != NB_WORD_TY)
        VG_(tool_panic)("netburst: a guest and host of the tool's own platform only (nb_guest.h)");
    /* The first block translated is the program's entry, and the stack is still as the kernel laid it out. */
    static Bool started = False;
    if (!started) {
        started = True;
        if (nb_clo.fixed_random) nb_fix_at_random(VG_(get_SP)(closure->tid));
    }
    nb_cpuid_redirect(sb_in);  /* cpuid answers as the emulated Pentium 4 (nb_cpuid.c) */
    nb_clock_redirect(sb_in);  /* rdtsc reads the emulated core with --clock=emulated (nb_clock.c) */

    /* Split the block into instructions. */
    Int n = 0;
    for (Int i = 0; i < sb_in->stmts_used; i++)
        if (sb_in->stmts[i]->tag == Ist_IMark) n++;
    IRSB* out = deepCopyIRSBExceptStmts(sb_in);
    if (n == 0) {
        for (Int i = 0; i < sb_in->stmts_used; i++) addStmtToIRSB(out, sb_in->stmts[i]);
        return optimise(out, vge->base[0]);
    }
    Scan s;
    s.n = n;
    s.insns = VG_(calloc)("netburst.insns", n, sizeof(Insn));
    s.put_bits = VG_(calloc)("netburst.put", sb_in->tyenv->types_used + 1, sizeof(ULong));
    s.get_bits = VG_(calloc)("netburst.get", sb_in->tyenv->types_used + 1, sizeof(ULong));
    s.def_insn = VG_(malloc)("netburst.def", (sb_in->tyenv->types_used + 1) * sizeof(Int));
    for (Int t = 0; t <= sb_in->tyenv->types_used; t++) s.def_insn[t] = -1;
    Int first_mark = -1;
    for (Int i = 0, k = -1; i < sb_in->stmts_used; i++) {
        if (sb_in->stmts[i]->tag != Ist_IMark) continue;
        if (first_mark < 0) first_mark = i;
        if (k >= 0) s.insns[k].end = i;
        s.insns[++k].first = i;
    }
    s.insns[n - 1].end = sb_in->stmts_used;
    analyse(&s, sb_in);
    for (Int i = 0; i < n; i++) {
        Insn* in = &s.insns[i];
        in->snapshot = nb_snapshots && in->recorded &&
                       (in->d.num_mem > 0 || nb_class_sampled_without_memory(in->d.cls));
        in->d.snapshot = in->snapshot ? 1 : 0;
    }

    /* Runs of instructions that always run together share their first one's record (nb_runtime.h): a first one
     * with its address words, then instructions that cannot fault and have nothing dynamic, the last of which
     * may be a conditional branch (its exit ends the run: nothing after it is sure to run). */
    Int head = -1;
    for (Int i = 0; i < n; i++) {
        Insn* in = &s.insns[i];
        const Bool member = in->recorded && !in->d.dynamic_target && in->d.rep_mode == NB_REP_NONE &&
                            in->kind != NB_CLASS_SYSCALL && !in->snapshot;
        const Bool follower = member && !in->faultable && in->d.num_mem == 0 && in->mem_seen == 0;
        in->d.group = 1;
        in->head = i;
        if (follower && head >= 0 && s.insns[head].d.group < 255) {
            s.insns[head].d.group++;
            in->d.group = 0;  /* counted by the head's record */
            in->head = head;
        } else {
            head = member ? i : -1;
        }
        /* Nothing after an instruction that may leave the block is sure to run: its own exits (a branch), and an
         * exit taken after it completed (is_completing_exit), which commits its record whole. */
        if (in->relevant_exits > 0) head = -1;
        for (Int j = in->first + 1; j < in->end && head >= 0; j++)
            if (is_completing_exit(in, sb_in->stmts[j])) head = -1;
    }

    /* Lay the records out and make the static infos. */
    UInt words = 0, recorded = 0;
    for (Int i = 0; i < n; i++) {
        Insn* in = &s.insns[i];
        if (!in->recorded) continue;
        in->off = words;
        in->words = in->d.group == 0 ? 0
                                     : 1 + in->d.num_mem + (in->d.dynamic_target ? 1 : 0) +
                                           (in->snapshot ? NB_SNAPSHOT_WORDS : 0);
        words += in->words;
        recorded++;
    }
    if (recorded > 0) {
        BlockNode* node = VG_(malloc)("netburst.block", sizeof(BlockNode));
        node->key = closure->nraddr;
        node->infos = nb_rt_block_new(recorded);
        for (Int i = 0, j = 0; i < n; i++)
            if (s.insns[i].recorded) s.insns[i].info = nb_rt_block_set(node->infos, j++, &s.insns[i].d);
        BlockNode* old = VG_(HT_remove)(nb_blocks, node->key);
        if (old) {
            nb_flush();
            nb_rt_block_free(old->infos);
            VG_(free)(old);
        }
        VG_(HT_add_node)(nb_blocks, node);
    }
    nb_stat_translations++;

    /* Statements before the first instruction (a self-check preamble) go first. */
    for (Int i = 0; i < first_mark; i++) addStmtToIRSB(out, sb_in->stmts[i]);

    IRTemp base = IRTemp_INVALID;
    if (recorded > 0) {
        /* If this block's records might not fit before the limit, hand the buffer to the emulator first. */
        IRTemp old = emit_tmp(out, NB_WORD_TY, IRExpr_Load(Iend_LE, NB_WORD_TY, nb_word((HWord)&nb_buf_ptr)));
        IRTemp limit = emit_tmp(out, NB_WORD_TY, IRExpr_Load(Iend_LE, NB_WORD_TY, nb_word((HWord)&nb_buf_limit)));
        IRTemp last = emit_tmp(out, NB_WORD_TY, IRExpr_Binop(NB_IOP_SUB, IRExpr_RdTmp(limit),
                                                              nb_word((ULong)words * sizeof(uint64_t))));
        IRTemp full = emit_tmp(out, Ity_I1, IRExpr_Binop(NB_IOP_CMPLTU, IRExpr_RdTmp(last), IRExpr_RdTmp(old)));
        IRDirty* di = unsafeIRDirty_0_N(0, "nb_flush_from_code", VG_(fnptr_to_fnentry)(&nb_flush_from_code),
                                        mkIRExprVec_0());
        di->guard = IRExpr_RdTmp(full);
        di->mFx = Ifx_Modify;
        di->mAddr = nb_word((HWord)&nb_buf_ptr);
        di->mSize = sizeof nb_buf_ptr;
        addStmtToIRSB(out, IRStmt_Dirty(di));
        base = emit_tmp(out, NB_WORD_TY, IRExpr_Load(Iend_LE, NB_WORD_TY, nb_word((HWord)&nb_buf_ptr)));
    }

    UInt committed = 0;  /* records [0, committed) are committed on the straight-line path */
    for (Int i = 0; i < n; i++) {
        Insn* in = &s.insns[i];
        addStmtToIRSB(out, sb_in->stmts[in->first]);  /* the IMark */
        nb_isa_check(out, sb_in->stmts[in->first], in->k.missing_extension);
        if (!in->recorded) {
            for (Int j = in->first + 1; j < in->end; j++) addStmtToIRSB(out, sb_in->stmts[j]);
            continue;
        }
        if (in->faultable && committed < in->off) {
            emit_commit(out, base, in->off, NULL, 0);
            committed = in->off;
        }
        if (in->words == 0) {  /* its group's head records it */
            const Insn* h = &s.insns[in->head];
            Int exits = 0;
            for (Int j = in->first + 1; j < in->end; j++) {
                IRStmt* st = sb_in->stmts[j];
                if (is_relevant_exit(in, st, exits)) {
                    /* The run's last instruction, a branch: the shared word carries its exit, and leaving here
                     * or not, the run is complete. */
                    emit_word(out, base, h->off, info_with_exit(out, h->info, st->Ist.Exit.guard, exits));
                    emit_commit(out, base, h->off + h->words, NULL, 0);
                    committed = h->off + h->words;
                    exits++;
                }
                addStmtToIRSB(out, st);
            }
            continue;
        }
        if (in->snapshot)
            emit_snapshot(out, base, in->off + 1 + in->d.num_mem + (in->d.dynamic_target ? 1 : 0), in->d.pc);
        if (in->relevant_exits == 0) emit_word(out, base, in->off, mk_u64(in->info));
        Int access = 0, exits = 0;
        UInt next = in->off + in->words;
        for (Int j = in->first + 1; j < in->end; j++) {
            IRStmt* st = sb_in->stmts[j];
            /* Record the addresses of the first two accesses, in the order analyse() counted them. */
            IRExpr* addr[2] = {NULL, NULL};
            IRExpr* guard = NULL;
            Int count = 0;
            switch (st->tag) {
            case Ist_WrTmp:
                if (st->Ist.WrTmp.data->tag == Iex_Load) addr[count++] = st->Ist.WrTmp.data->Iex.Load.addr;
                break;
            case Ist_Store: addr[count++] = st->Ist.Store.addr; break;
            case Ist_StoreG:
                addr[count++] = st->Ist.StoreG.details->addr;
                guard = st->Ist.StoreG.details->guard;
                break;
            case Ist_LoadG:
                addr[count++] = st->Ist.LoadG.details->addr;
                guard = st->Ist.LoadG.details->guard;
                break;
            case Ist_CAS:
                addr[count++] = st->Ist.CAS.details->addr;
                addr[count++] = st->Ist.CAS.details->addr;
                break;
            case Ist_Dirty: {
                IRDirty* d = st->Ist.Dirty.details;
                guard = d->guard;
                if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify) addr[count++] = d->mAddr;
                if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify) addr[count++] = d->mAddr;
                break;
            }
            default:
                break;
            }
            for (Int c = 0; c < count; c++, access++)
                if (access < in->d.num_mem)
                    emit_word(out, base, in->off + 1 + access, guarded_address(out, addr[c], guard));
            if (is_relevant_exit(in, st, exits)) {
                IRExpr* g = st->Ist.Exit.guard;
                emit_word(out, base, in->off, info_with_exit(out, in->info, g, exits));
                /* Leaving here completes the instruction; staying, it is complete only if no accesses remain. */
                if (access < in->d.num_mem) {
                    emit_commit(out, base, next, g, committed);
                } else {
                    emit_commit(out, base, next, NULL, 0);
                    committed = next;
                }
                exits++;
            } else if (is_completing_exit(in, st) && access >= in->d.num_mem) {
                /* Every address is written by now: leaving here, the record is complete. */
                emit_commit(out, base, next, st->Ist.Exit.guard, committed);
            }
            addStmtToIRSB(out, st);
        }
        if (in->d.dynamic_target) emit_word(out, base, in->off + 1 + in->d.num_mem, record_word(out, sb_in->next));
    }
    if (recorded > 0 && committed < words) emit_commit(out, base, words, NULL, 0);

    VG_(free)(s.insns);
    VG_(free)(s.put_bits);
    VG_(free)(s.get_bits);
    VG_(free)(s.def_insn);
    return optimise(out, vge->base[0]);
}
