/* The guest architecture this build of the tool runs. Valgrind runs a program with the tool built for the program's
 * platform, so the tool is built once per platform (tool.mk): netburst-amd64-linux for x86-64 programs and
 * netburst-x86-linux for i386 ones, which every Pentium 4 before EM64T ran (issue 29). Guest and host are the same
 * architecture in each build: a guest address, a host pointer and a guest register are all one word, 8 or 4 bytes.
 *
 * What differs is named here once: the guest state's layout (the general registers in encoding order, the vector
 * registers), the names of the VEX helpers the tool replaces (cpuid, rdtsc) or calls (the optimiser's), and the IR
 * of one word. The records stay 64-bit words on both (nb_runtime.h): a word-sized value is widened as it is stored. */
#ifndef NB_GUEST_H
#define NB_GUEST_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"

#if defined(VGA_amd64)
#include "libvex_guest_amd64.h"

typedef VexGuestAMD64State NbGuestState;
#define NB_GUEST_GPRS 16                                  /* RAX..R15, in encoding order, a word apart */
#define NB_GUEST_GPR0 offsetof(VexGuestAMD64State, guest_RAX)
#define NB_GUEST_VECS 16                                  /* YMM0..YMM15: the xmm registers and their upper halves */
#define NB_GUEST_VEC_BYTES 32
#define NB_GUEST_VEC0 offsetof(VexGuestAMD64State, guest_YMM0)
#define NB_GUEST_AX offsetof(VexGuestAMD64State, guest_RAX)
#define NB_GUEST_BX offsetof(VexGuestAMD64State, guest_RBX)
#define NB_GUEST_CX offsetof(VexGuestAMD64State, guest_RCX)
#define NB_GUEST_DX offsetof(VexGuestAMD64State, guest_RDX)
#define NB_VEX_HELPER(name) "amd64g_" name
#define NB_VEX_ARCH VexArchAMD64
#define NB_GUEST_EFLAGS(gs) LibVEX_GuestAMD64_get_rflags(gs)

#define NB_WORD_TY Ity_I64
#define NB_IOP_ADD Iop_Add64
#define NB_IOP_SUB Iop_Sub64
#define NB_IOP_SHL Iop_Shl64
#define NB_IOP_OR Iop_Or64
#define NB_IOP_CMPLTU Iop_CmpLT64U
#define NB_IOP_1UTOW Iop_1Uto64
#define NB_WORD_CONST(v) IRConst_U64((ULong)(v))
#define NB_WORD_CONST_TAG Ico_U64
#define NB_WORD_CONST_VALUE(c) ((c)->Ico.U64)

#elif defined(VGA_x86)
#include "libvex_guest_x86.h"

typedef VexGuestX86State NbGuestState;
#define NB_GUEST_GPRS 8                                   /* EAX..EDI, in encoding order, a word apart */
#define NB_GUEST_GPR0 offsetof(VexGuestX86State, guest_EAX)
#define NB_GUEST_VECS 8                                   /* XMM0..XMM7 */
#define NB_GUEST_VEC_BYTES 16
#define NB_GUEST_VEC0 offsetof(VexGuestX86State, guest_XMM0)
#define NB_GUEST_AX offsetof(VexGuestX86State, guest_EAX)
#define NB_GUEST_BX offsetof(VexGuestX86State, guest_EBX)
#define NB_GUEST_CX offsetof(VexGuestX86State, guest_ECX)
#define NB_GUEST_DX offsetof(VexGuestX86State, guest_EDX)
#define NB_VEX_HELPER(name) "x86g_" name
#define NB_VEX_ARCH VexArchX86
#define NB_GUEST_EFLAGS(gs) LibVEX_GuestX86_get_eflags(gs)

#define NB_WORD_TY Ity_I32
#define NB_IOP_ADD Iop_Add32
#define NB_IOP_SUB Iop_Sub32
#define NB_IOP_SHL Iop_Shl32
#define NB_IOP_OR Iop_Or32
#define NB_IOP_CMPLTU Iop_CmpLT32U
#define NB_IOP_1UTOW Iop_1Uto32
#define NB_WORD_CONST(v) IRConst_U32((UInt)(v))
#define NB_WORD_CONST_TAG Ico_U32
#define NB_WORD_CONST_VALUE(c) ((ULong)(c)->Ico.U32)

#else
#error "the netburst tool is built for amd64-linux or x86-linux (VGA_amd64 or VGA_x86)"
#endif

/* The bytes of one guest word: a general register, an address, a field of the flags thunk. */
#define NB_WORD_BYTES ((Int)sizeof(UWord))

/* The guest state's fields of the same name in both layouts. */
#define NB_GUEST_FIELD(field) offsetof(NbGuestState, guest_##field)

/* One word as an IR constant, and a word-typed expression as the 64-bit value a record holds. */
static inline IRExpr* nb_word(ULong v) { return IRExpr_Const(NB_WORD_CONST(v)); }
static inline IRExpr* nb_widen_word(IRExpr* e) {
#if defined(VGA_x86)
    return IRExpr_Unop(Iop_32Uto64, e);
#else
    return e;
#endif
}

#endif /* NB_GUEST_H */
