/* The boundary between the tool's C glue (which speaks Valgrind's API) and the C++ runtime (which owns the
 * emulator). The C side instruments code, tracks threads and files; the C++ side turns the recorded instruction
 * stream into Instruction records, runs them through the one emulator, and keeps each guest thread's PMU.
 *
 * Plain C, included from both sides. */
#ifndef NB_RUNTIME_H
#define NB_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "emulator/protocol/netburst_client.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- The instruction feed ------------------------------------------------------------------------------------
 * Instrumented code appends one record per executed guest instruction to a word buffer:
 *   word 0:   the address of the instruction's static info (8-aligned), ORed with the outcome of its side exits
 *             (bit 0: the first exit was taken; bit 1: the second);
 *   then:     one word per recorded memory operand (its address; NB_NO_ACCESS when a guarded access did not
 *             happen), and for indirect branches one word with the actual target;
 *   then:     while the program arms PEBS, for an instruction that can be sampled (desc.snapshot), the registers at
 *             its start: NB_SNAPSHOT_WORDS words in the order of RegisterSnapshot (emulator/model/instruction.h),
 *             which is the 64-bit PEBS record's (EFLAGS, RIP, RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8-R15).
 * Everything else about the instruction is static and lives in the info.
 *
 * A run of instructions that always run together shares one record, its first instruction's: the first may have
 * memory operands (their address words follow as usual) and may fault; the others cannot fault and have nothing
 * dynamic, except that the last may be a conditional branch whose exit bits the shared word carries. If the first
 * runs, they all run, in order. The runtime finds the others in the infos that follow the first (the infos of a
 * translation are consecutive). */
#define NB_NO_ACCESS (~(uint64_t)0)
#define NB_SNAPSHOT_WORDS 18u
#define NB_EXIT_BITS 3u

enum nb_branch_mode {
    NB_BR_NONE,             /* not a conditional branch */
    NB_BR_EXIT_TAKEN,       /* exit bit 0 set: the branch was taken */
    NB_BR_EXIT_NOT_TAKEN,   /* exit bit 0 set: the branch fell through (VEX laid the exit out inverted) */
    NB_BR_STATIC_TAKEN,     /* the optimiser folded the condition: always taken */
    NB_BR_STATIC_NOT_TAKEN  /* always falls through */
};

enum nb_rep_mode {
    NB_REP_NONE,
    NB_REP_PLAIN,    /* rep movs/stos/lods/ins/outs: bit 0 set means rCX was 0 (the instruction ends here) */
    NB_REP_COND      /* repe/repne cmps/scas: as NB_REP_PLAIN, and bit 1 set means "iterate again" */
};

/* What the instrumenter found out about one instruction. */
struct nb_insn_desc {
    uint64_t pc;
    uint64_t target;          /* direct branches: the taken target */
    uint64_t reads, writes;   /* RegMask bits (emulator/model/instruction.h) */
    uint64_t address;         /* RegMask bits: the registers of a ModRM memory address; 0 not known */
    uint8_t length;
    uint8_t cls;              /* InsnClass */
    uint8_t num_mem;          /* recorded memory operands, 0-2: one address word each */
    uint8_t mem_size[2];
    uint8_t mem_store[2];
    uint8_t branch_mode;      /* enum nb_branch_mode */
    uint8_t dynamic_target;   /* 1: a target word follows the addresses */
    uint8_t rep_mode;         /* enum nb_rep_mode */
    uint8_t group;            /* >1: the record of this instruction stands for it and the next group-1 ones;
                                 0: one of those */
    uint8_t form;             /* InsnForm */
    uint8_t snapshot;         /* 1: NB_SNAPSHOT_WORDS register words end the record (never in a group) */
    uint8_t imm_bits;         /* the immediate's width as a signed number; 0 none (Instruction::imm_bits) */
};

/* How the launcher configured the tool. */
struct nb_rt_config {
    unsigned model;
    int hyper_threading;
    int with_l3;
    int cpu_wide;        /* one PMU for all guest threads */
    int kernel_model;    /* run the synthetic system-call path at CPL 0 */
    uint64_t timer_tick; /* with kernel_model: a thread's instructions between timer interrupts (0: none) */
    int recording;       /* write the instruction stream through nb_host_write_record */
    unsigned max_threads;/* Valgrind thread ids are below this */
    int emulated_clock;  /* the guest's clock reads the core's cycles (nb_clock.c), estimated while untimed */
    int pmi_skid_cycles; /* cycles from an overflow to its interrupt being taken; -1: the emulator's default */
    int memo_probe;      /* measure the timing memo's hit rate (emulator/memo_probe.h) */
    uint64_t memo_probe_states; /* with memo_probe: the memo's capacity in states (rounded down to a power of 2) */
    /* --timing=sampled (emulator/pmu/sampled_counters.h): while a counter needs cycles, every sample_period program
     * instructions the timing tier runs sample_warm of detailed warming, then measures a unit of sample_unit; the
     * rest run in the functional tier, and cycle-driven counters read estimates. 0: --timing=exact. */
    int timing_sampled;
    uint64_t sample_period;
    uint64_t sample_warm;
    uint64_t sample_unit;
    uint64_t sample_head; /* instructions timed after each read or write of a counter */
};

/* Sets up the emulator. Returns NULL, or an error message. */
const char* nb_rt_init(const struct nb_rt_config* config);
/* The launcher's event program (emulator/protocol/program_file.h). Returns NULL, or an error message. */
const char* nb_rt_load_program(const char* text, size_t length);

/* Static infos of one translation. */
void* nb_rt_block_new(unsigned count);
/* Fills info `index` and returns its address, the value of record word 0. */
uint64_t nb_rt_block_set(void* block, unsigned index, const struct nb_insn_desc* desc);
void nb_rt_block_free(void* block);

/* Runs the records [begin, end) of the current thread through the emulator. */
void nb_rt_consume(const uint64_t* begin, const uint64_t* end);

/* Threads (Valgrind thread ids). The buffer must be consumed before the current thread changes. */
void nb_rt_thread_created(unsigned tid);
void nb_rt_switch_thread(unsigned tid);
void nb_rt_thread_exited(unsigned tid);
/* In a forked child: `tid` is its only thread, and the child counts from zero. */
void nb_rt_fork_child(unsigned tid);

/* The MSR channel, for the current thread. Results are the NB_* codes of netburst_client.h. */
int nb_rt_wrmsr(uint32_t msr, uint64_t value);
int nb_rt_rdmsr(uint32_t msr, uint64_t* value);
int nb_rt_rdpmc(uint32_t ecx, uint64_t* value);
/* Counter 0-17's CCCR (as nb_rt_rdmsr) and then its full value (as nb_rt_rdpmc): NB_REQ_READ_COUNTERS. */
int nb_rt_read_counter(uint32_t counter, uint64_t* cccr, uint64_t* value);
int nb_rt_counter_status(uint32_t counter);
/* NB_REQ_COUNTER_INTERVAL (netburst_client.h). */
int nb_rt_counter_interval(uint32_t counter, uint64_t* half_width);
void nb_rt_query(struct nb_emulator_info* info);
/* PMIs to the guest (netburst_client.h, NB_REQ_PMI_SIGNAL, NB_REQ_TAKE_PMI and NB_REQ_TAKE_PEBS), for the current
 * thread. */
void nb_rt_set_pmi_signal(int signo);
int nb_rt_take_pmi(struct nb_pmi* out);
int nb_rt_take_pebs(struct nb_pebs_note* out);

/* Whether the program has armed PEBS (IA32_PEBS_ENABLE enables it for a logical processor) on a live thread's PMU:
 * while it has, translations carry register snapshots for the instructions PEBS can sample. netburst-run record's
 * own PEBS does not count (perf.data holds no registers). */
int nb_rt_pebs_armed(void);

/* The guest's CPUID (emulator/x86/guest_cpuid.h) on the current thread's logical processor: regs receives
 * EAX, EBX, ECX, EDX. */
void nb_rt_cpuid(uint32_t leaf, uint32_t subleaf, uint32_t regs[4]);
/* Instructions the emulated model does not have (emulator/x86/guest_isa.h; nb_decode_insn tells which).
 * nb_rt_missing_instruction: one ran at pc; returns 1 for the process's first, which nb_rt_name_first_missing may
 * then name (its function). */
int nb_rt_missing_instruction(uint64_t pc, unsigned extension);
void nb_rt_name_first_missing(const char* symbol);

/* Ends the emulation (the program exits): closes every cycle so that the reads that follow are final. */
void nb_rt_finish(void);
/* The results of the launcher's events so far (exited threads plus the live ones), in the results-file format
 * (emulator/protocol/results_file.h); `final_run` marks the end of the process (else an exec follows). Also
 * writes out what is pending of the --record stream. Returns the length written, 0 when the buffer is too
 * small. */
size_t nb_rt_results(char* buffer, size_t capacity, int final_run, uint64_t pid);

/* netburst-run record (emulator/protocol/sample_file.h): whether the program samples; the process image's header
 * line (pid, executable); after nb_rt_finish, its samples' last lines; then the C side's map lines and the end line
 * (nb_rt_sampling_line: one line, without its newline). nb_rt_sampling_flush hands what is buffered to
 * nb_host_write_samples (before a fork, and at the end). */
int nb_rt_sampling(void);
void nb_rt_sampling_begin(uint64_t pid, const char* exe);
void nb_rt_sampling_finish(void);
void nb_rt_sampling_line(const char* line);
void nb_rt_sampling_flush(void);

/* Statistics for -v. */
uint64_t nb_rt_instructions(void);
/* The emulated clock's cycle (Emulator::clock(): exact, or estimated while untimed) after what has been consumed;
 * the model's nominal frequency. */
uint64_t nb_rt_cycles_now(void);
unsigned nb_rt_cpu_mhz(void);
/* The program read the emulated clock (after nb_rt_cycles_now): a timed region may start here. */
void nb_rt_clock_read(void);
uint64_t nb_rt_timed_instructions(void);
/* The half-width of the emulated clock's 99.7 % confidence interval (0: exact; ~0: not bounded yet). */
uint64_t nb_rt_clock_half_width(void);
/* With --memo-probe=yes: the timed blocks, how many a timing memo would have hit, and the keys stored
 * (emulator/memo_probe.h). Returns 0 without the probe. */
int nb_rt_memo_probe(uint64_t* blocks, uint64_t* hits, uint64_t* stored, uint64_t* evicted);
uint64_t nb_rt_thread_switches(void);

/* One decode of an instruction's bytes (emulator/x86/x86_instruction.h) answers all the instrumenter asks: class,
 * form and branch target, the registers it reads and writes (prescott_idioms: the 90 nm zero idioms, models 3 and
 * later), and the extension the emulated model lacks of it. */
struct nb_x86_insn {
    uint8_t cls;         /* InsnClass */
    uint8_t known;
    uint8_t rep_mode;    /* enum nb_rep_mode */
    uint8_t has_rel;
    int32_t rel;         /* direct branches: target = pc + length + rel */
    uint8_t special;     /* Valgrind's client-request sequence: not guest work */
    uint8_t form;        /* InsnForm */
    uint8_t operands_known;  /* 0: an encoding whose operands the opcode table does not give */
    uint64_t reads, writes;  /* RegMask bits */
    uint64_t address;        /* RegMask bits: the base and index registers of a ModRM memory operand */
    uint8_t imm_bits;        /* the immediate's width as a signed number; 0 none (Instruction::imm_bits) */
    unsigned missing_extension;  /* a GuestExtension the model lacks (nb_rt_missing_instruction), 0 for none */
};
void nb_decode_insn(const uint8_t* bytes, unsigned length, int prescott_idioms, struct nb_x86_insn* out);
/* The RegMask bits (emulator/model/instruction.h) for the flags, the x87 status word, a general register and an
 * xmm; and every bit of the x87 and MMX registers (the status word, the stack registers named from TOP, mm0-mm7,
 * TOP's moves), which only the bytes can give. */
uint64_t nb_reg_flags(void);
uint64_t nb_reg_x87(void);
uint64_t nb_reg_x87_all(void);
uint64_t nb_reg_gpr(unsigned n);
uint64_t nb_reg_xmm(unsigned n);
/* The InsnClass numbers the instrumenter tests. */
enum nb_class_of_interest { NB_CLASS_COND_BRANCH, NB_CLASS_INDIRECT, NB_CLASS_INT_DIV, NB_CLASS_SYSCALL,
                            NB_CLASS_OTHER };
int nb_class_kind(uint8_t cls);
/* Whether an instruction of class cls can be a PEBS sample without a memory operand: a branch (replay tagging of
 * mispredicted branches) or x87, MMX and SSE work (execution tagging). Any instruction with one can (front-end and
 * replay tagging of loads and stores). */
int nb_class_sampled_without_memory(uint8_t cls);

/* ---- Services the C side provides (nb_host.c) ------------------------------------------------------------- */
void* nb_host_malloc(size_t size);
void nb_host_free(void* p);
void nb_host_write_record(const void* bytes, size_t size);
/* Guest memory for the DS save area: 1 on success, 0 when the range is not accessible. */
int nb_host_read_guest(uint64_t address, void* buffer, unsigned size);
int nb_host_write_guest(uint64_t address, const void* buffer, unsigned size);
__attribute__((noreturn)) void nb_host_panic(const char* message);
/* The samples file of netburst-run record. */
void nb_host_write_samples(const void* bytes, size_t size);
/* Where the instruction at ip is, from Valgrind's debug information; the strings stay valid until the next call.
 * Returns 0 when nothing is known. */
struct nb_source_place {
    const char* function;
    const char* file;
    const char* dir;
    unsigned line;
};
int nb_host_describe_ip(uint64_t ip, struct nb_source_place* out);
/* The Linux thread id of the thread running now. */
uint64_t nb_host_gettid(void);
/* Sends signal signo to the guest thread whose Linux thread id is lwp (Valgrind delivers it when it next polls). */
void nb_host_signal_thread(uint64_t lwp, int signo);
/* Short batches of records (on) while some thread takes overflow interrupts as signals, or the full buffer. */
void nb_host_short_batches(int on);

#ifdef __cplusplus
}
#endif

#endif /* NB_RUNTIME_H */
