/* The guest's clock (--clock=emulated): the time an emulated Pentium 4 would have taken, not the host's.
 *
 * On a Pentium 4, rdtsc counts that processor's core clock, and the operating system's clocks advance with it.
 * Under Valgrind the guest reads the host's instead, whose rate has nothing to do with the emulated core, and which
 * differs from run to run (so PAPI's timers, a program that times itself, and anything printing times repeat
 * neither what a Pentium 4 shows nor themselves). With --clock=emulated:
 *  - rdtsc returns the emulated core's cycle (Emulator::now()) after every earlier instruction has been run
 *    through the model: VEX turns rdtsc into a dirty call to amd64g_dirtyhelper_RDTSC, which the tool swaps for its
 *    own before it analyses the block (as nb_cpuid.c does for cpuid). An instruction with a dirty call commits the
 *    records before it (nb_instrument.c), so the value does not depend on where Valgrind cut the block;
 *  - clock_gettime, gettimeofday and time answer with the host's time when the program started plus the emulated
 *    cycles since then at the model's nominal frequency (its brand string, guest_cpuid.h): under Valgrind they are
 *    system calls (the vDSO is not used), whose results the tool overwrites after the kernel wrote them.
 * The cycles exist only in the timing tier, so the runtime keeps every instruction there (nb_rt_init). Time the
 * program spends blocked (sleep, I/O, waiting for another thread) does not advance the clock: the core model has
 * no idle time to add (doc/guest-cpu.md, "The clock"). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "libvex_guest_amd64.h"

#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

static ULong start_realtime_ns, start_monotonic_ns;

static ULong elapsed_ns(void);

/* The clocks start at the host's time truncated to the second. A start with the host's fraction of a second would
 * make the difference of two readings at microsecond (or millisecond) resolution depend on that fraction: PAPI's
 * "Real usec" of the same run could come out one apart, as gettimeofday's truncation fell. */
void nb_clock_init(void) {
    struct vki_timespec ts;
    VG_(clock_gettime)(&ts, VKI_CLOCK_REALTIME);
    start_realtime_ns = (ULong)ts.tv_sec * 1000000000ull;
    VG_(clock_gettime)(&ts, VKI_CLOCK_MONOTONIC);
    start_monotonic_ns = (ULong)ts.tv_sec * 1000000000ull;
}

/* A forked child's emulator counts from zero (nb_rt_fork_child): its clock starts where the parent's was. */
void nb_clock_fork_child(void) {
    if (!nb_clo.clock_emulated) return;
    const ULong ns = elapsed_ns();
    start_realtime_ns += ns;
    start_monotonic_ns += ns;
}

/* The emulated cycle now, every record before the caller's instruction included. */
static ULong cycles_now(void) {
    nb_consume_committed();
    return nb_rt_cycles_now();
}

/* Nanoseconds of emulated time since the program started. */
static ULong elapsed_ns(void) {
    const ULong mhz = nb_rt_cpu_mhz();
    return mhz == 0 ? 0 : cycles_now() * 1000ull / mhz;
}

/* ---- rdtsc ----------------------------------------------------------------------------------------------------- */

static ULong nb_clock_rdtsc(void) { return cycles_now(); }

static Bool is_vex_rdtsc(const IRDirty* d) {
    return d->cee && VG_(strcmp)(d->cee->name, "amd64g_dirtyhelper_RDTSC") == 0;
}

void nb_clock_redirect(IRSB* sb) {
    if (!nb_clo.clock_emulated) return;
    for (Int i = 0; i < sb->stmts_used; i++) {
        IRStmt* st = sb->stmts[i];
        if (st->tag != Ist_Dirty || !is_vex_rdtsc(st->Ist.Dirty.details)) continue;
        const IRDirty* vex = st->Ist.Dirty.details;
        IRDirty* d = unsafeIRDirty_1_N(vex->tmp, 0, "nb_clock_rdtsc", VG_(fnptr_to_fnentry)(&nb_clock_rdtsc),
                                       mkIRExprVec_0());
        d->guard = vex->guard;
        sb->stmts[i] = IRStmt_Dirty(d);
    }
}

/* ---- The system calls that read the time ------------------------------------------------------------------------ */

/* The emulated reading of a clock, in nanoseconds; False for a clock left as the host has it. */
static Bool emulated_clock(UWord clock_id, ULong* ns) {
    switch ((Word)clock_id) {
    case VKI_CLOCK_REALTIME: case 5 /* CLOCK_REALTIME_COARSE */: case 11 /* CLOCK_TAI */:
        *ns = start_realtime_ns + elapsed_ns();
        return True;
    case VKI_CLOCK_MONOTONIC: case 4 /* CLOCK_MONOTONIC_RAW */: case 6 /* CLOCK_MONOTONIC_COARSE */:
    case 7 /* CLOCK_BOOTTIME */:
        *ns = start_monotonic_ns + elapsed_ns();
        return True;
    case VKI_CLOCK_PROCESS_CPUTIME_ID: case VKI_CLOCK_THREAD_CPUTIME_ID:
        /* One emulated core runs the whole process: its CPU time is the elapsed emulated time. */
        *ns = elapsed_ns();
        return True;
    default:
        return False;
    }
}

Bool nb_clock_rewrites(UInt syscallno) {
    return nb_clo.clock_emulated &&
           (syscallno == __NR_clock_gettime || syscallno == __NR_gettimeofday || syscallno == __NR_time);
}

void nb_clock_post_syscall(ThreadId tid, UInt syscallno, UWord* args, SysRes res) {
    if (!nb_clock_rewrites(syscallno) || sr_isError(res)) return;
    ULong ns;
    switch (syscallno) {
    case __NR_clock_gettime:
        if (args[1] != 0 && emulated_clock(args[0], &ns)) {
            struct vki_timespec* ts = (struct vki_timespec*)args[1];
            ts->tv_sec = (vki_time_t)(ns / 1000000000ull);
            ts->tv_nsec = (long)(ns % 1000000000ull);
        }
        break;
    case __NR_gettimeofday:
        if (args[0] != 0) {
            emulated_clock(VKI_CLOCK_REALTIME, &ns);
            struct vki_timeval* tv = (struct vki_timeval*)args[0];
            tv->tv_sec = (vki_time_t)(ns / 1000000000ull);
            tv->tv_usec = (vki_suseconds_t)(ns % 1000000000ull / 1000);
        }
        break;
    case __NR_time: {
        emulated_clock(VKI_CLOCK_REALTIME, &ns);
        const ULong seconds = ns / 1000000000ull;
        if (args[0] != 0) *(vki_time_t*)args[0] = (vki_time_t)seconds;
        VG_(set_shadow_regs_area)(tid, 0, offsetof(VexGuestAMD64State, guest_RAX), 8, (const UChar*)&seconds);
        break;
    }
    default:
        break;
    }
}
