/* The program's CPU-time interval timers on the emulated clock (--clock=emulated).
 *
 * setitimer(ITIMER_PROF) and setitimer(ITIMER_VIRTUAL) count the process's CPU time. Under Valgrind the host's
 * kernel would count the host's CPU time, which runs a hundred times slower than a Pentium 4's and differs from run
 * to run: PAPI's multiplexing (SIGPROF every 10 ms by default) would switch event sets after a few hundred
 * thousand emulated instructions instead of a Pentium 4's tens of millions, and at other instructions in every
 * run. With the emulated clock the tool keeps these two timers itself, on the emulated core's cycles, which are the
 * process's CPU time there (nb_clock.c: one emulated core runs the whole process):
 *  - setitimer: before the system call the tool takes the new value and hands the kernel a zero one (disarm), so
 *    the host never fires the timer; after it, it puts the program's value back and writes the emulated old value;
 *  - getitimer: the tool rewrites the kernel's (zero) answer with the emulated remaining time;
 *  - expiry: after each batch of records the emulator consumes (a hook of the record buffer, nb_buffer.c), a timer
 *    whose cycle has come owes its signal, which is sent to the running thread (nb_host_signal_thread) when the
 *    batch was flushed from the program's code: the thread then takes it at its next block. From anywhere else (a
 *    system call, a thread switch) Valgrind would take the signal only at the end of the thread's time slice,
 *    100,000 blocks later, so it waits for the next flush from code. A signal thus arrives at most about one batch
 *    after the instruction whose cycle reached the expiry (a few thousand instructions: a few microseconds of
 *    emulated time), at the same instruction in every run of the same program.
 * ITIMER_REAL, alarm and timer_create stay the host's: a wait with no timeout (pause, sigsuspend) does not advance
 * the emulated clock, so a real-time timer a program sleeps waiting for would never expire (doc/guest-cpu.md, "The
 * clock"). A forked child starts with no timers, as on Linux; a successful exec loses them (the tool starts again
 * with the new image). A non-zero new value in read-only memory cannot be swapped: that timer stays the host's,
 * with a warning (a zero one, which disarms, needs no swap). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "emulator/valgrind/nb_runtime.h"
#include "emulator/valgrind/nb_tool.h"

/* Linux's `which` numbers (Valgrind's vki headers do not name them); the two timers sit at index which - 1. */
enum { NB_ITIMER_VIRTUAL = 1, NB_ITIMER_PROF = 2, NB_ITIMERS = 2 };

struct emulated_itimer {
    ULong expiry;    /* the cycle it expires at; 0: disarmed */
    ULong interval;  /* cycles between expiries after the first; 0: one-shot */
};

static struct emulated_itimer timers[NB_ITIMERS];
static Bool armed;          /* some timer is armed */
static UInt signals_owed;   /* bit i: timer i expired and its signal is not sent yet */

/* The program's new value, held between setitimer's pre and post. */
static struct vki_itimerval pending;
static Bool pending_valid;

static struct emulated_itimer* timer_of(UWord which) {
    return which == NB_ITIMER_VIRTUAL || which == NB_ITIMER_PROF ? &timers[which - 1] : NULL;
}

Bool nb_itimer_handles(UInt syscallno, UWord which) {
    return nb_clo.clock_emulated && (syscallno == __NR_setitimer || syscallno == __NR_getitimer) &&
           timer_of(which) != NULL;
}

static Bool valid_timeval(const struct vki_timeval* t) {
    return t->tv_sec >= 0 && t->tv_usec >= 0 && t->tv_usec < 1000000;
}

static ULong cycles_of(const struct vki_timeval* t) {
    return ((ULong)t->tv_sec * 1000000ull + (ULong)t->tv_usec) * nb_rt_cpu_mhz();
}

/* Rounded up, as Linux does, so that an armed timer never reads as zero. */
static void timeval_of(ULong cycles, struct vki_timeval* t) {
    const ULong mhz = nb_rt_cpu_mhz();
    const ULong us = mhz == 0 ? 0 : (cycles + mhz - 1) / mhz;
    t->tv_sec = (vki_time_t)(us / 1000000ull);
    t->tv_usec = (vki_suseconds_t)(us % 1000000ull);
}

static void read_timer(const struct emulated_itimer* t, ULong now, struct vki_itimerval* out) {
    timeval_of(t->interval, &out->it_interval);
    timeval_of(t->expiry > now ? t->expiry - now : 0, &out->it_value);
}

static void note_armed(void) {
    armed = False;
    for (Int i = 0; i < NB_ITIMERS; i++) armed |= timers[i].expiry != 0;
}

/* Each timer the emulated cycles reached by `now` owes its signal; a periodic one moves to its next expiry. */
static void expire_at(ULong now) {
    for (Int i = 0; i < NB_ITIMERS; i++) {
        struct emulated_itimer* t = &timers[i];
        if (t->expiry == 0 || t->expiry > now) continue;
        signals_owed |= 1u << i;  /* expiries before the signal is sent are one signal, as Linux's are */
        if (t->interval == 0) t->expiry = 0;
        else t->expiry += t->interval * ((now - t->expiry) / t->interval + 1);
    }
    note_armed();
}

/* setitimer(which, new, old): the kernel gets a zero new value (it disarms the host's timer, which is never armed
 * here) unless the value is one the kernel refuses, which it then refuses as it would have. */
void nb_itimer_pre_syscall(UInt syscallno, UWord* args) {
    pending_valid = False;
    struct vki_itimerval value;
    if (syscallno != __NR_setitimer || !nb_host_read_guest(args[1], &value, sizeof value)) return;
    if (!valid_timeval(&value.it_value) || !valid_timeval(&value.it_interval)) return;
    const struct vki_itimerval zero = {{0, 0}, {0, 0}};
    /* A zero value (a disarm: PAPI's multiplexing stops its timer with a static const one) is what the kernel gets
     * anyway, so one that cannot be swapped costs nothing. */
    if (!nb_host_write_guest(args[1], &zero, sizeof zero) && VG_(memcmp)(&value, &zero, sizeof zero) != 0) {
        /* The value cannot be swapped for a zero one (a static const itimerval): say so rather than run this timer
         * on the host's clock silently. */
        static Bool warned;
        if (!warned)
            VG_(umsg)("netburst: setitimer's new value is in read-only memory, so this timer runs on the host's "
                      "CPU time, not the emulated clock (put the itimerval in writable memory)\n");
        warned = True;
        return;
    }
    pending = value;
    pending_valid = True;
}

void nb_itimer_post_syscall(UInt syscallno, UWord* args, SysRes res) {
    struct emulated_itimer* t = timer_of(args[0]);
    nb_consume_committed();
    const ULong now = nb_rt_cycles_now();
    expire_at(now);  /* an expiry the last records reached is owed first, and the reading is what is left */
    struct vki_itimerval reading;
    read_timer(t, now, &reading);
    if (syscallno == __NR_getitimer) {
        if (!sr_isError(res)) nb_host_write_guest(args[1], &reading, sizeof reading);
        return;
    }
    if (!pending_valid) return;  /* the kernel had the program's own value, and refused it */
    /* First: the old value's buffer may be the same one. (A read-only zero value is not written, and needs not.) */
    nb_host_write_guest(args[1], &pending, sizeof pending);
    pending_valid = False;
    if (sr_isError(res)) return;
    if (args[2] != 0) nb_host_write_guest(args[2], &reading, sizeof reading);
    const ULong value = cycles_of(&pending.it_value);
    t->expiry = value == 0 ? 0 : now + value;
    t->interval = value == 0 ? 0 : cycles_of(&pending.it_interval);
    note_armed();
}

/* After records went through the emulator: each timer the emulated cycles reached owes its signal. */
static void expire_after_flush(void) {
    if (armed) expire_at(nb_rt_cycles_now());
}

/* At a flush from the program's code, where the running thread takes a signal at its next block: the owed signals
 * go to it. */
static void deliver_in_code(void) {
    if (!signals_owed) return;
    for (Int i = 0; i < NB_ITIMERS; i++)
        if (signals_owed & (1u << i))
            nb_host_signal_thread(nb_host_gettid(), i + 1 == NB_ITIMER_PROF ? VKI_SIGPROF : VKI_SIGVTALRM);
    signals_owed = 0;
}

void nb_itimer_init(void) {
    if (nb_clo.clock_emulated) nb_buffer_add_hooks(expire_after_flush, deliver_in_code);
}

void nb_itimer_fork_child(void) {
    VG_(memset)(timers, 0, sizeof timers);
    signals_owed = 0;
    note_armed();
}
