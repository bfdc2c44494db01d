/* The guest sees a Pentium 4: its CPUID answers with the emulated model (guest_cpuid.h), and instructions of
 * extensions that model does not have are reported (guest_isa.h). See doc/guest-cpu.md.
 *
 * CPUID: VEX translates the guest's cpuid into a dirty call to one of its amd64g_dirtyhelper_CPUID_* (or, for an
 * i386 guest, x86g_dirtyhelper_CPUID_*) helpers, which describe a processor of VEX's choosing close to the host. The
 * tool swaps that call for one to its own helper, with the same guest-state effects (rAX and rCX read, rAX, rBX, rCX
 * and rDX written), before it analyses the block, so the instruction is recorded as before and only the answer
 * changes. */
#include "pub_tool_basics.h"
#include "pub_tool_debuginfo.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"

#include "emulator/valgrind/nb_guest.h"
#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

/* ---- CPUID --------------------------------------------------------------------------------------------------- */

/* The four registers as guest words: in 64-bit mode CPUID zero-extends its 32-bit results. */
static void nb_cpuid_helper(NbGuestState* st) {
    UWord* const ax = (UWord*)((UChar*)st + NB_GUEST_AX);
    UWord* const bx = (UWord*)((UChar*)st + NB_GUEST_BX);
    UWord* const cx = (UWord*)((UChar*)st + NB_GUEST_CX);
    UWord* const dx = (UWord*)((UChar*)st + NB_GUEST_DX);
    uint32_t regs[4];
    nb_rt_cpuid((uint32_t)*ax, (uint32_t)*cx, regs);
    *ax = regs[0];
    *bx = regs[1];
    *cx = regs[2];
    *dx = regs[3];
}

static Bool is_vex_cpuid(const IRDirty* d) {
    static const HChar prefix[] = NB_VEX_HELPER("dirtyhelper_CPUID");
    return d->cee && VG_(strncmp)(d->cee->name, prefix, sizeof prefix - 1) == 0;
}

static void set_effect(IRDirty* d, Int k, IREffect fx, Int offset) {
    d->fxState[k].fx = fx;
    d->fxState[k].offset = offset;
    d->fxState[k].size = NB_WORD_BYTES;
    d->fxState[k].nRepeats = 0;
    d->fxState[k].repeatLen = 0;
}

static IRDirty* tool_cpuid_call(const IRDirty* vex) {
    IRDirty* d = unsafeIRDirty_0_N(0, "nb_cpuid_helper", VG_(fnptr_to_fnentry)(&nb_cpuid_helper),
                                   mkIRExprVec_1(IRExpr_GSPTR()));
    d->guard = vex->guard;
    d->nFxState = 4;
    set_effect(d, 0, Ifx_Modify, NB_GUEST_AX);  /* leaf in, EAX out */
    set_effect(d, 1, Ifx_Write, NB_GUEST_BX);
    set_effect(d, 2, Ifx_Modify, NB_GUEST_CX);  /* subleaf in, ECX out */
    set_effect(d, 3, Ifx_Write, NB_GUEST_DX);
    return d;
}

void nb_cpuid_redirect(IRSB* sb) {
    for (Int i = 0; i < sb->stmts_used; i++) {
        IRStmt* st = sb->stmts[i];
        if (st->tag == Ist_Dirty && is_vex_cpuid(st->Ist.Dirty.details))
            sb->stmts[i] = IRStmt_Dirty(tool_cpuid_call(st->Ist.Dirty.details));
    }
}

/* ---- Instructions the model does not have -------------------------------------------------------------------- */

/* Runs before each execution of such an instruction (they are rare in a program that dispatches on CPUID, so a
 * helper call costs nothing elsewhere). The first one's function is looked up once. */
static VG_REGPARM(2) void nb_missing_hit(HWord pc, HWord extension) {
    if (nb_rt_missing_instruction(pc, (unsigned)extension)) {
        const HChar* name = NULL;
        if (VG_(get_fnname)(VG_(current_DiEpoch)(), pc, &name)) nb_rt_name_first_missing(name);
    }
}

void nb_isa_check(IRSB* out, const IRStmt* imark, unsigned extension) {
    if (extension == 0) return;
    const Addr pc = imark->Ist.IMark.addr;
    IRDirty* d = unsafeIRDirty_0_N(2, "nb_missing_hit", VG_(fnptr_to_fnentry)(&nb_missing_hit),
                                   mkIRExprVec_2(nb_word(pc), nb_word(extension)));
    addStmtToIRSB(out, IRStmt_Dirty(d));
}
