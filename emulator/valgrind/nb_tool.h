/* Declarations shared by the tool's C files (nb_main.c, nb_instrument.c, nb_events.c). */
#ifndef NB_TOOL_H
#define NB_TOOL_H

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* ---- Options (nb_main.c) ---- */
struct nb_options {
    UInt model;
    Bool ht;
    Bool l3;
    Bool cpu_wide;
    Bool kernel_model;
    ULong timer_tick;      /* --timer-tick=N: instructions of a thread between timer interrupts; 0: none */
    const HChar* program;  /* --program=FILE: netburst-run's event program */
    const HChar* results;  /* --results=DIR: where this process writes its results */
    const HChar* record;   /* --record=FILE: the instruction stream as a binary trace (%p expands to the pid) */
    Bool fixed_random;     /* --fixed-random: the program's AT_RANDOM bytes are fixed ones (nb_fixed_random.c) */
    const HChar* progress; /* --progress=DIR: where this process keeps its instruction count for netburst-run */
    Bool clock_emulated;   /* --clock=emulated: rdtsc and the time system calls read the emulated core (nb_clock.c) */
    Bool memo_probe;       /* --memo-probe=yes: measure the timing memo's hit rate (emulator/memo_probe.h) */
    Long memo_probe_states;/* --memo-probe-states=N: the probed memo's capacity in states */
    Long pmi_skid;         /* --pmi-skid=N: cycles from an overflow to its interrupt being taken; -1: the default */
};
extern struct nb_options nb_clo;

/* ---- The record buffer (nb_instrument.c) ---- */
/* Runs every buffered record through the emulator. Call before anything that must see the emulator exact:
 * client requests, thread switches, fork, exec, exit, discarding translations. */
void nb_flush(void);
/* The same from a helper called inside a block (a dirty call): every committed record is run, and the buffer keeps
 * its place. */
void nb_consume_committed(void);
IRSB* nb_instrument(VgCallbackClosure* closure, IRSB* sb_in, const VexGuestLayout* layout,
                    const VexGuestExtents* vge, const VexArchInfo* archinfo_host, IRType gWordTy, IRType hWordTy);
void nb_discard_superblock(Addr orig_addr, VexGuestExtents extents);
/* Translations carry register snapshots while the program has PEBS armed. nb_snapshots_recheck: that may have
 * changed (an MSR write, a thread's exit, a fork). nb_snapshots_follow_pebs: if so, asks the runtime and, on a
 * change, discards every translation; only where the core allows discarding, in a client request. */
void nb_snapshots_recheck(void);
void nb_snapshots_follow_pebs(void);
void nb_instrument_init(void);
void nb_instrument_stats(void);

/* ---- Reproducible start (nb_fixed_random.c) ---- */
/* Overwrites the AT_RANDOM bytes of the initial stack at initial_sp with fixed ones; before the first instruction. */
void nb_fix_at_random(Addr initial_sp);

/* ---- What the guest sees of the processor (nb_cpuid.c) ---- */
/* Makes the block's cpuid answer with the emulated Pentium 4 (before the block is analysed). */
void nb_cpuid_redirect(IRSB* sb);
/* After an instruction's IMark in the instrumented block: reports each execution of an instruction the emulated
 * model does not have (extension: the one nb_decode_insn found missing, 0 for none). */
void nb_isa_check(IRSB* out, const IRStmt* imark, unsigned extension);

/* ---- The guest's clock (nb_clock.c) ---- */
/* Notes the host's time at the start (post_clo_init). */
void nb_clock_init(void);
/* With --clock=emulated, makes the block's rdtsc read the emulated core (before the block is analysed). */
void nb_clock_redirect(IRSB* sb);
/* With --clock=emulated, whether the system call is one whose result nb_clock_post_syscall rewrites. */
Bool nb_clock_rewrites(UInt syscallno);
/* With --clock=emulated, rewrites what clock_gettime, gettimeofday and time returned. */
void nb_clock_post_syscall(ThreadId tid, UInt syscallno, UWord* args, SysRes res);
/* In a forked child, before the runtime restarts its counts. */
void nb_clock_fork_child(void);

/* ---- The CPU-time interval timers on the emulated clock (nb_itimer.c) ---- */
/* Whether some ITIMER_PROF or ITIMER_VIRTUAL is armed (nb_flush then calls nb_itimer_expire), and whether an
 * expired one's signal is still to be sent (the next flush from the program's code calls nb_itimer_deliver). */
extern Bool nb_itimers_armed;
extern UInt nb_itimer_signals_owed;
/* With --clock=emulated, whether the system call is a setitimer or getitimer the tool keeps on the emulated clock. */
Bool nb_itimer_handles(UInt syscallno, UWord which);
/* For a system call nb_itimer_handles: before it runs, and after it ran (with the caller's thread current). */
void nb_itimer_pre_syscall(UInt syscallno, UWord* args);
void nb_itimer_post_syscall(UInt syscallno, UWord* args, SysRes res);
/* After records went through the emulator: each timer the emulated cycles reached owes its signal. */
void nb_itimer_expire(void);
/* From a flush in the program's code: sends the owed signals to the running thread. */
void nb_itimer_deliver(void);
/* In a forked child: no timers, as on Linux. */
void nb_itimer_fork_child(void);

/* ---- A whole file, NUL-terminated, in a buffer the caller frees; NULL when it cannot be opened (nb_read_file.c) */
HChar* nb_read_file(const HChar* path, const HChar* cost_centre, SizeT* length);

/* ---- /proc/self/maps without Valgrind's mappings (nb_procfs.c) ---- */
void nb_procfs_post_syscall(UInt syscallno, UWord* args, SysRes res);

/* ---- Threads, client requests, fork and exec (nb_events.c) ---- */
/* Registers the client-request handler and the thread, fork and system-call callbacks (in pre_clo_init). */
void nb_events_register(void);

/* ---- Files (nb_main.c) ---- */
/* Writes this process's results (final at the end, or before an exec). */
void nb_write_results(Bool final_run);
/* In a forked child: results and records go to files of its own. */
void nb_files_after_fork(void);
/* After each flush of the record buffer: with --progress, rewrites the instruction count about twice a second. */
void nb_progress(void);
/* Writes all of bytes to fd; False when it cannot. */
Bool nb_write_all(Int fd, const void* bytes, SizeT size);

/* ---- netburst-run record's samples file (nb_samples.c) ---- */
/* Creates <dir>/samples-<pid>-<k> when the event program samples (k: that of the results file). */
void nb_samples_open(const HChar* dir, Int pid, UInt k);
/* The image's last lines (counts, source places, mappings, end); final_run False: before an exec. */
void nb_samples_close(Bool final_run);
void nb_samples_before_fork(void);
void nb_samples_after_fork(const HChar* dir, Int pid, UInt k);

#endif /* NB_TOOL_H */
