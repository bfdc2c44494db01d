/* The tool's C files and what each provides to the others, one section per file. A file uses only the sections
 * above its own: no file calls back up (scripts/check-house.sh checks it). nb_main.c, which registers the tool,
 * uses them all and provides nothing. The C++ runtime's side, and the nb_host_* services nb_host.c gives it, are in
 * nb_runtime.h. */
#ifndef NB_TOOL_H
#define NB_TOOL_H

#include <stdint.h>

#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

/* ---- nb_options.c: the command line ---- */
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
    Bool timing_sampled;   /* --timing=sampled: cycle-driven counts are estimates from sampled units (SMARTS) */
    ULong sample_period;   /* --sample-period=N: program instructions from one sample's start to the next's */
    ULong sample_warm;     /* --sample-warm=N: instructions of detailed warming before each unit */
    ULong sample_unit;     /* --sample-unit=N: instructions of each measured unit */
    ULong sample_head;     /* --sample-head=N: instructions timed after each read or write of a counter */
};
extern struct nb_options nb_clo;
/* Registers the options' parser and help with Valgrind (in pre_clo_init). */
void nb_options_register(void);
/* Ends the run with a bad-option message when options contradict each other (in post_clo_init): the parser sees
 * one option at a time. */
void nb_options_check(void);

/* ---- nb_file_io.c: files with Valgrind's libc ---- */
/* A whole file, NUL-terminated, in a buffer the caller frees; NULL when it cannot be opened. */
HChar* nb_read_file(const HChar* path, const HChar* cost_centre, SizeT* length);
/* A file opened for writing, created (exclusive: only if it does not exist) or truncated; -1 when it cannot be. */
Int nb_open_for_writing(const HChar* path, Bool exclusive);
/* Writes all of bytes to fd; False when it cannot. */
Bool nb_write_all(Int fd, const void* bytes, SizeT size);

/* ---- nb_buffer.c: the record buffer ---- */
/* Where the next record goes, and where a block's records must end; the instrumented code reads both and commits
 * its records by storing nb_buf_ptr. */
extern uint64_t* nb_buf_ptr;
extern uint64_t* nb_buf_limit;
/* Runs every buffered record through the emulator. Call before anything that must see the emulator exact:
 * client requests, thread switches, fork, exec, exit, discarding translations. */
void nb_flush(void);
/* The same from a helper called inside a block (a dirty call): every committed record is run, and the buffer keeps
 * its place. */
void nb_consume_committed(void);
/* Called from the instrumented code when a block's records might not fit: nb_flush, then the in-code hooks. */
VG_REGPARM(0) void nb_flush_from_code(void);
/* Batches of at most a few hundred records (on), or the full buffer. */
void nb_buffer_short_batches(Bool on);
/* What follows a batch: after_flush after every flush that ran records, in_code at every flush from the program's
 * code (after after_flush), where a signal sent to the running thread is taken at its next block. Either may be
 * NULL; hooks run in the order they were added. */
void nb_buffer_add_hooks(void (*after_flush)(void), void (*in_code)(void));

/* ---- nb_host.c: the runtime's services (nb_runtime.h) ---- */
/* The files nb_host_write_record and nb_host_write_samples write to; -1: none. nb_files.c opens the --record file
 * and nb_samples.c the samples file; a write that fails closes one. */
extern Int nb_record_fd;
extern Int nb_samples_fd;

/* ---- nb_fixed_random.c: a reproducible start ---- */
/* Overwrites the AT_RANDOM bytes of the initial stack at initial_sp with fixed ones; before the first instruction. */
void nb_fix_at_random(Addr initial_sp);

/* ---- nb_cpuid.c: what the guest sees of the processor ---- */
/* Makes the block's cpuid answer with the emulated Pentium 4 (before the block is analysed). */
void nb_cpuid_redirect(IRSB* sb);
/* After an instruction's IMark in the instrumented block: reports each execution of an instruction the emulated
 * model does not have (extension: the one nb_decode_insn found missing, 0 for none). */
void nb_isa_check(IRSB* out, const IRStmt* imark, unsigned extension);

/* ---- nb_clock.c: the guest's clock ---- */
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
/* With --clock=emulated, whether the system call may wait with a timeout (nanosleep, poll, futex...): the wall
 * clocks then pass the time it waited for (nb_clock_pre_wait before it runs, nb_clock_post_wait after, with the
 * caller's thread current). */
Bool nb_clock_watches_wait(UInt syscallno);
void nb_clock_pre_wait(ThreadId tid, UInt syscallno, UWord* args);
void nb_clock_post_wait(ThreadId tid, UInt syscallno, SysRes res);

/* ---- nb_itimer.c: the CPU-time interval timers on the emulated clock ---- */
/* With --clock=emulated, adds the record buffer's hooks: expiry after each batch, the owed signals from code. */
void nb_itimer_init(void);
/* With --clock=emulated, whether the system call is a setitimer or getitimer the tool keeps on the emulated clock. */
Bool nb_itimer_handles(UInt syscallno, UWord which);
/* For a system call nb_itimer_handles: before it runs, and after it ran (with the caller's thread current). */
void nb_itimer_pre_syscall(UInt syscallno, UWord* args);
void nb_itimer_post_syscall(UInt syscallno, UWord* args, SysRes res);
/* In a forked child: no timers, as on Linux. */
void nb_itimer_fork_child(void);

/* ---- nb_procfs.c: /proc/self/maps without Valgrind's mappings ---- */
void nb_procfs_post_syscall(UInt syscallno, UWord* args, SysRes res);

/* ---- nb_samples.c: netburst-run record's samples file ---- */
/* Creates <dir>/samples-<pid>-<k> when the event program samples (k: that of the results file). */
void nb_samples_open(const HChar* dir, Int pid, UInt k);
/* The image's last lines (counts, source places, mappings, end); final_run False: before an exec. */
void nb_samples_close(Bool final_run);
void nb_samples_before_fork(void);
void nb_samples_after_fork(const HChar* dir, Int pid, UInt k);

/* ---- nb_files.c: the event program, results, --record and progress files ---- */
/* Reads the event program and creates this image's files (post_clo_init, after nb_rt_init). */
void nb_files_open(void);
/* Writes this process's results (final at the end, or before an exec). */
void nb_write_results(Bool final_run);
/* In a forked child: results and records go to files of its own. */
void nb_files_after_fork(void);
/* At the end, after the last results. */
void nb_files_close(void);

/* ---- nb_instrument.c: instrumentation ---- */
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
/* The optimisation level the user asked for (--vex-iropt-level), applied to the instrumented block: VEX itself
 * runs at level 0 before the tool (nb_main.c). */
void nb_instrument_set_iropt_level(Int level);

/* ---- nb_events.c: threads, client requests, fork and exec ---- */
/* Registers the client-request handler and the thread, fork and system-call callbacks (in pre_clo_init). */
void nb_events_register(void);

#endif /* NB_TOOL_H */
