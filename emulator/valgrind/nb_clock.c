/* The guest's clock (--clock=emulated, the default): the time an emulated Pentium 4 would have taken, not the host's.
 *
 * On a Pentium 4, rdtsc counts that processor's core clock, and the operating system's clocks advance with it.
 * Under Valgrind the guest reads the host's instead, whose rate has nothing to do with the emulated core, and which
 * differs from run to run (so PAPI's timers, a program that times itself, and anything printing times repeat
 * neither what a Pentium 4 shows nor themselves). With --clock=emulated:
 *  - rdtsc returns the emulated core's cycle (Emulator::now()) after every earlier instruction has been run
 *    through the model: VEX turns rdtsc into a dirty call to amd64g_dirtyhelper_RDTSC (x86g_dirtyhelper_RDTSC for
 *    an i386 guest), which the tool swaps for its own before it analyses the block (as nb_cpuid.c does for cpuid).
 *    An instruction with a dirty call commits the records before it (nb_instrument.c), so the value does not
 *    depend on where Valgrind cut the block;
 *  - clock_gettime, gettimeofday and time answer with the host's time when the program started plus the emulated
 *    cycles since then at the model's nominal frequency (its brand string, guest_cpuid.h): under Valgrind they are
 *    system calls (the vDSO is not used), whose results the tool overwrites after the kernel wrote them.
 * The cycles are the timing tier's: exact while every instruction is timed, and estimated from the sampled
 * schedule while no counter needs cycles (emulator/sampled_clock.h; nb_rt_cycles_now gives either). The core
 * model has no idle time, so a wait that ran out its timeout adds that time to the wall clocks ("Waiting" below;
 * doc/guest-cpu.md, "The clock"); a wait for an event alone adds nothing. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_machine.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "emulator/valgrind/nb_guest.h"
#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

static ULong start_realtime_ns, start_monotonic_ns;

/* The deadline, in wall nanoseconds since the start, of the wait each thread is in (0: none); VG_N_THREADS of
 * them (--max-threads), allocated once the options are known. */
static ULong* wait_deadline;

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
    if (nb_clo.clock_emulated) wait_deadline = VG_(calloc)("nb.clock.waits", VG_N_THREADS, sizeof(ULong));
}

/* The emulated cycle now, every record before the caller's instruction included. */
static ULong core_cycles(void) {
    nb_consume_committed();
    return nb_rt_cycles_now();
}

/* The same when the program reads its clock: a region it times may start here. */
static ULong cycles_now(void) {
    const ULong cycles = core_cycles();
    nb_rt_clock_read();
    return cycles;
}

static ULong ns_of(ULong cycles) {
    const ULong mhz = nb_rt_cpu_mhz();
    return mhz == 0 ? 0 : cycles * 1000ull / mhz;
}

/* Nanoseconds of emulated time the process ran since the program started. */
static ULong elapsed_ns(void) { return ns_of(cycles_now()); }

/* What the process's ancestors ran before it was forked: not its CPU time. */
static ULong inherited_ns;

/* The core model carries on across fork (nb_rt_fork_child counts the child's events from zero, but the core's cycle
 * goes on), so the child's wall clocks and time stamp counter go on from the parent's, and its CPU time starts at
 * zero, as on Linux. (Moving the clocks' start by the time so far, as this did before, counted it twice: a child
 * forked after 179 ms read its monotonic clock 179 ms ahead of its parent's.) */
void nb_clock_fork_child(void) {
    if (!nb_clo.clock_emulated) return;
    inherited_ns = ns_of(core_cycles());
}

/* ---- Waiting ----------------------------------------------------------------------------------------------------
 * A Pentium 4's clocks go on while its program waits, but the core model has no idle time: a program that waits
 * for its clock to reach a time (usleep in a loop, a poll, futex or sigtimedwait with a timeout, an absolute
 * clock_nanosleep, whose deadline in emulated time is long past for the host's kernel) would wait for instructions
 * that never come. OpenMPI's ranks sleep 125 us at a time until gettimeofday passes a deadline: two ranks of
 * examples/stencil.c took 121 s instead of 5.5 s. So a call that ended because its timeout ran out ends no earlier
 * than that timeout after it began: the wall clocks, and rdtsc (its counter runs at the core's rate whatever the
 * core does), then read at least that. A call that something else ended (data on a socket, a futex woken, a
 * signal) adds nothing, nor does a wait the other threads' instructions outran. The CPU-time clocks and the
 * CPU-time timers do not advance while the process waits, as on Linux. Single-threaded programs that sleep stay
 * repeatable: the time added is what they asked for. */
static ULong idle_ns;  /* wall time beyond the cycles: the waits' */



static ULong wall_ns(ULong cycles) { return ns_of(cycles) + idle_ns; }

/* Linux's values, which Valgrind's vki headers do not all name. */
enum { NB_TIMER_ABSTIME = 1, NB_FUTEX_PRIVATE = 128, NB_FUTEX_CLOCK_REALTIME = 256, NB_ETIMEDOUT = 110 };

/* The call a system-call number stands for, and whether its times are 64-bit ones. An i386 program has the
 * 32-bit-time calls and their *_time64 twins with struct __kernel_timespec, which glibc 2.34 and later make first;
 * its select is _newselect (select is the old call with one argument block, which glibc does not make). The rules
 * below are written for the plain calls; NB_NO_CALL matches none of them. */
#define NB_NO_CALL 0xFFFFFFFFu
static UInt plain_call(UInt syscallno, Bool* time64) {
    *time64 = False;
#if defined(VGA_x86)
    switch (syscallno) {
    case __NR_clock_gettime64: *time64 = True; return __NR_clock_gettime;
    case __NR_clock_nanosleep_time64: *time64 = True; return __NR_clock_nanosleep;
    case __NR_futex_time64: *time64 = True; return __NR_futex;
    case __NR_ppoll_time64: *time64 = True; return __NR_ppoll;
    case __NR_pselect6_time64: *time64 = True; return __NR_pselect6;
    case __NR_rt_sigtimedwait_time64: *time64 = True; return __NR_rt_sigtimedwait;
    case __NR__newselect: return __NR_select;
    case __NR_select: return NB_NO_CALL;
    default: break;
    }
#endif
    return syscallno;
}

static Bool read_client(UWord address, void* out, SizeT size) {
    if (address == 0 || !VG_(am_is_valid_for_client)(address, size, VKI_PROT_READ)) return False;
    VG_(memcpy)(out, (const void*)address, size);
    return True;
}

/* A struct timespec, or with time64 a struct __kernel_timespec (whose tv_nsec the kernel reads as 32 bits). */
static Bool timespec_ns(UWord address, Bool time64, ULong* ns) {
    Long sec, nsec;
    if (time64) {
        struct vki_timespec64 t;
        if (!read_client(address, &t, sizeof t)) return False;
        sec = t.tv_sec;
        nsec = t.tv_nsec;
    } else {
        struct vki_timespec t;
        if (!read_client(address, &t, sizeof t)) return False;
        sec = t.tv_sec;
        nsec = t.tv_nsec;
    }
    if (sec < 0 || nsec < 0) return False;
    *ns = (ULong)sec * 1000000000ull + (ULong)nsec;
    return True;
}

static Bool timeval_ns(UWord address, ULong* ns) {
    struct vki_timeval t;
    if (!read_client(address, &t, sizeof t) || t.tv_sec < 0 || t.tv_usec < 0) return False;
    *ns = (ULong)t.tv_sec * 1000000000ull + (ULong)t.tv_usec * 1000ull;
    return True;
}

static Bool milliseconds_ns(UWord timeout, ULong* ns) {
    if ((Int)timeout < 0) return False;  /* forever */
    *ns = (ULong)(Int)timeout * 1000000ull;
    return True;
}

/* The wall start of an absolute deadline on a clock, in wall nanoseconds since the start; False for a clock whose
 * time does not pass while waiting. */
static Bool absolute_ns(UWord clock_id, ULong deadline, ULong* out) {
    switch ((Word)clock_id) {
    case VKI_CLOCK_REALTIME: case 11 /* CLOCK_TAI */:
        *out = deadline > start_realtime_ns ? deadline - start_realtime_ns : 0;
        return True;
    case VKI_CLOCK_MONOTONIC: case 7 /* CLOCK_BOOTTIME */:
        *out = deadline > start_monotonic_ns ? deadline - start_monotonic_ns : 0;
        return True;
    default:
        return False;
    }
}

/* The deadline of a call that waits at most a while, in wall nanoseconds since the start; False for any other call,
 * or one that waits for an event only. */
static Bool wait_of(UInt number, const UWord* args, ULong now, ULong* deadline) {
    ULong ns = 0;
    Bool relative = True, time64;
    const UInt syscallno = plain_call(number, &time64);
    switch (syscallno) {
    case __NR_nanosleep: if (!timespec_ns(args[0], time64, &ns)) return False; break;
    case __NR_clock_nanosleep:
        if (!timespec_ns(args[2], time64, &ns)) return False;
        if (args[1] & NB_TIMER_ABSTIME) {
            if (!absolute_ns(args[0], ns, deadline)) return False;
            relative = False;
        } else if (args[0] >= 2 && args[0] <= 3) {
            return False;  /* CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID: CPU time */
        }
        break;
    case __NR_poll: case __NR_epoll_wait: case __NR_epoll_pwait:
        if (!milliseconds_ns(syscallno == __NR_poll ? args[2] : args[3], &ns)) return False;
        break;
    case __NR_ppoll: case __NR_pselect6: case __NR_rt_sigtimedwait:
        if (!timespec_ns(syscallno == __NR_pselect6 ? args[4] : args[2], time64, &ns)) return False;
        break;
    case __NR_select: if (!timeval_ns(args[4], &ns)) return False; break;
    case __NR_futex: {
        const UWord command = args[1] & ~(UWord)(NB_FUTEX_PRIVATE | NB_FUTEX_CLOCK_REALTIME);
        if (command != VKI_FUTEX_WAIT && command != VKI_FUTEX_WAIT_BITSET) return False;
        if (!timespec_ns(args[3], time64, &ns)) return False;  /* no timeout: waits until woken */
        if (command == VKI_FUTEX_WAIT_BITSET) {
            const UWord clock = (args[1] & NB_FUTEX_CLOCK_REALTIME) ? VKI_CLOCK_REALTIME : VKI_CLOCK_MONOTONIC;
            if (!absolute_ns(clock, ns, deadline)) return False;
            relative = False;
        }
        break;
    }
    default:
        return False;
    }
    if (relative) *deadline = now + ns;
    return True;
}

/* Whether the call ended because its timeout ran out. */
static Bool timed_out(UInt number, SysRes res) {
    Bool time64;
    switch (plain_call(number, &time64)) {
    case __NR_nanosleep: case __NR_clock_nanosleep: return !sr_isError(res);
    case __NR_futex: return sr_isError(res) && sr_Err(res) == NB_ETIMEDOUT;
    case __NR_rt_sigtimedwait: return sr_isError(res) && sr_Err(res) == VKI_EAGAIN;
    default: return !sr_isError(res) && sr_Res(res) == 0;  /* nothing ready */
    }
}

Bool nb_clock_watches_wait(UInt number) {
    if (!nb_clo.clock_emulated) return False;
    Bool time64;
    switch (plain_call(number, &time64)) {
    case __NR_nanosleep: case __NR_clock_nanosleep: case __NR_poll: case __NR_ppoll: case __NR_select:
    case __NR_pselect6: case __NR_epoll_wait: case __NR_epoll_pwait: case __NR_futex: case __NR_rt_sigtimedwait:
        return True;
    default:
        return False;
    }
}

void nb_clock_pre_wait(ThreadId tid, UInt syscallno, UWord* args) {
    if (wait_deadline == NULL || tid >= VG_N_THREADS) return;
    ULong deadline = 0;
    wait_deadline[tid] = wait_of(syscallno, args, wall_ns(core_cycles()), &deadline) ? deadline : 0;
}

void nb_clock_post_wait(ThreadId tid, UInt syscallno, SysRes res) {
    if (wait_deadline == NULL || tid >= VG_N_THREADS || wait_deadline[tid] == 0) return;
    const ULong deadline = wait_deadline[tid];
    wait_deadline[tid] = 0;
    if (!timed_out(syscallno, res)) return;
    const ULong now = wall_ns(core_cycles());
    if (deadline > now) idle_ns += deadline - now;
}

/* ---- rdtsc ----------------------------------------------------------------------------------------------------- */

/* The time stamp counter runs at the core's rate while the program waits, too. */
static ULong nb_clock_rdtsc(void) {
    const ULong cycles = cycles_now();
    return cycles + idle_ns * nb_rt_cpu_mhz() / 1000ull;
}

static Bool is_vex_rdtsc(const IRDirty* d) {
    return d->cee && VG_(strcmp)(d->cee->name, NB_VEX_HELPER("dirtyhelper_RDTSC")) == 0;
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
        *ns = start_realtime_ns + elapsed_ns() + idle_ns;
        return True;
    case VKI_CLOCK_MONOTONIC: case 4 /* CLOCK_MONOTONIC_RAW */: case 6 /* CLOCK_MONOTONIC_COARSE */:
    case 7 /* CLOCK_BOOTTIME */:
        *ns = start_monotonic_ns + elapsed_ns() + idle_ns;
        return True;
    case VKI_CLOCK_PROCESS_CPUTIME_ID: case VKI_CLOCK_THREAD_CPUTIME_ID:
        /* One emulated core runs the whole process: its CPU time is the emulated time it ran. */
        *ns = elapsed_ns() - inherited_ns;
        return True;
    default:
        return False;
    }
}

Bool nb_clock_rewrites(UInt number) {
    Bool time64;
    const UInt syscallno = plain_call(number, &time64);
    return nb_clo.clock_emulated &&
           (syscallno == __NR_clock_gettime || syscallno == __NR_gettimeofday || syscallno == __NR_time);
}

void nb_clock_post_syscall(ThreadId tid, UInt number, UWord* args, SysRes res) {
    if (!nb_clock_rewrites(number) || sr_isError(res)) return;
    ULong ns;
    Bool time64;
    switch (plain_call(number, &time64)) {
    case __NR_clock_gettime:
        if (args[1] != 0 && emulated_clock(args[0], &ns) && time64) {
            struct vki_timespec64* ts = (struct vki_timespec64*)args[1];
            ts->tv_sec = (vki_time64_t)(ns / 1000000000ull);
            ts->tv_nsec = (vki_int32_t)(ns % 1000000000ull);
            ts->tv_pad = 0;
        } else if (args[1] != 0 && emulated_clock(args[0], &ns)) {
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
        const UWord result = (UWord)seconds;
        VG_(set_shadow_regs_area)(tid, 0, NB_GUEST_AX, sizeof result, (const UChar*)&result);
        break;
    }
    default:
        break;
    }
}
