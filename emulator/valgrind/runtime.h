// The tool's C++ side: it owns the one Emulator, turns the instrumented code's records into Instruction records,
// keeps a virtual PMU per guest thread, answers the MSR channel and sums the launcher's events.
//
// Freestanding: it runs inside the Valgrind tool (no C library, no C++ runtime); memory comes from
// nb_host_malloc and objects are built with placement new.
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/emulator.h"
#include "emulator/pmu/record_ring.h"
#include "emulator/protocol/program_file.h"
#include "emulator/protocol/results_file.h"
#include "emulator/sampling/sampler.h"
#include "emulator/trace/binary_codec.h"
#include "emulator/x86/guest_cpuid.h"
#include "emulator/valgrind/kernel_model.h"
#include "emulator/valgrind/nb_runtime.h"

namespace netburst::emu::vg {

// The static part of one guest instruction, made once per translation. Record word 0 points at it.
struct alignas(8) InsnInfo {
    // Logical processor 0, CPL 3, memory operands without addresses. ToolRuntime::consume() writes each
    // execution's dynamic fields (addresses, outcome, target, logical processor) into it before running it.
    Instruction tmpl;
    std::uint8_t mem_words = 0;   // address words after word 0
    std::uint8_t branch_mode = NB_BR_NONE;
    std::uint8_t rep_mode = NB_REP_NONE;
    bool dynamic_target = false;
    bool syscall = false;
    bool snapshot = false;        // the record ends with the registers at the instruction's start
    bool simple = false;          // no words, no exit bits, not a rep or a syscall: tmpl runs as it is
    // How consume() takes the commonest records without looking at the rest of the info.
    enum class Fast : std::uint8_t {
        None,
        Plain,       // simple, with a plan
        OneAccess,   // one address word (unless the access was absent), nothing else dynamic, with a plan
        ExitBranch,  // a conditional branch whose outcome is exit bit 0 (inverted when `invert`), with a plan
        Group,       // the record of `group` simple instructions, this one and the infos that follow it
    };
    Fast fast = Fast::None;
    bool invert = false;
    std::uint8_t group = 1;
    // The uop plan of tmpl's shape (every recorded access present), worked out once: Emulator::stable_plan.
    const UopPlan* plan = nullptr;
    // Infos of the same translation after this one (their instructions come next in the code).
    std::uint32_t remaining = 0;
    // The functional tier's run from this record on (ToolRuntime::look_up_run): the records that follow this
    // one in its translation up to the first exit (the translation writes them in a row unless it leaves early),
    // taken as one group plan (Emulator::stable_group) whenever they all came. Looked for at the record's first
    // execution in the functional tier; `run_plan` nullptr when there is none.
    bool run_looked_up = false;
    std::uint8_t run_members = 0;  // instructions of the run (infos from this one on)
    // For each record of a run (set by look_up_run): the infos its record stands for, and which of them (an
    // offset) has its outcome in the record's exit bits (kNoExit: none).
    static constexpr std::uint8_t kNoExit = 0xFF;
    std::uint8_t span = 1;
    std::uint8_t exit_at = kNoExit;
    const GroupPlan* run_plan = nullptr;
};

// Record word 0's value for `info` (without exit bits): its address, zero-extended. Through uintptr_t, because
// GCC sign-extends a pointer cast straight to a wider integer, and the x86 build's infos live above 2 GiB: its
// records (zero-extended 32-bit words) then never matched, and every run of records fell back to one instruction
// at a time.
inline std::uint64_t info_word(const InsnInfo* info) {
    return static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(info));
}

struct ThreadContext {
    bool live = false;
    bool ran = false;
    std::uint8_t lp = 0;
    Pmu* pmu = nullptr;          // the thread's own PMU (per-thread mode), made when it first runs
    void* pmu_memory = nullptr;  // the allocation behind it
    // PMUs 1 and up of netburst-run's program, watching the same core (per-thread mode; ToolRuntime::observers_
    // in CPU-wide mode). The program never reaches them.
    Pmu* observers[Emulator::kMaxObservers] = {};
    void* observer_memory[Emulator::kMaxObservers] = {};
    Cycle switched_out = 0;      // when it last stopped running
    std::uint64_t instructions = 0;
    std::uint64_t next_tick = 0;  // the thread's instruction count at which its next timer interrupt is due
    // PMIs to the guest (ToolRuntime::deliver_pmis): the signal the thread named (0: none), its Linux thread id,
    // and the interrupts taken and not yet fetched.
    int pmi_signal = 0;
    std::uint64_t lwp = 0;
    RecordRing<PmiRecord, 16> pmis;
    // The PEBS records its PMU wrote, not yet taken (NB_REQ_TAKE_PEBS): as many as the component's buffer holds.
    RecordRing<nb_pebs_note, 32> pebs_notes;
    // netburst-run record -g and --callgrind: its call stack (chains, call edges), made when the thread first runs
    // under such a recording (6 KB, which every thread slot would pay otherwise) and kept for the slot's next
    // threads. Its open calls are closed and it is cleared when the thread exits; a forked child's thread keeps
    // the forking thread's.
    ShadowStack* stack = nullptr;
};

class ToolRuntime {
public:
    const char* init(const nb_rt_config& config);
    const char* load_program(const char* text, std::size_t length);

    void consume(const std::uint64_t* p, const std::uint64_t* end);
    // Runs records from p until `end`, or until a boundary of the sampled schedule changed the tier the loop was
    // made for (then returns where it stopped, for consume() to go on with the other loop).
    template <bool kQuietFunctional, bool kSampling>
    const std::uint64_t* consume_loop(const std::uint64_t* p, const std::uint64_t* end);
    const UopPlan* stable_plan(const Instruction& insn) { return emu_->stable_plan(insn); }

    void thread_created(unsigned tid);
    void switch_thread(unsigned tid);
    void thread_exited(unsigned tid);
    void fork_child(unsigned tid);

    int wrmsr(std::uint32_t msr, std::uint64_t value);
    int rdmsr(std::uint32_t msr, std::uint64_t* value);
    int rdpmc(std::uint32_t ecx, std::uint64_t* value);
    int counter_status(std::uint32_t counter);
    int counter_interval(std::uint32_t counter, std::uint64_t* half_width);
    void query(nb_emulator_info* info);
    // PMIs to the guest: the signal the current thread wants for its PMU's interrupts, and its oldest one.
    void set_pmi_signal(int signo);
    int take_pmi(nb_pmi* out);
    int take_pebs(nb_pebs_note* out);
    // The program has armed PEBS on a live thread's PMU (nb_rt_pebs_armed).
    bool pebs_armed() const;
    // The guest's CPUID on the current thread's logical processor (guest_cpuid.h).
    CpuidRegs cpuid(std::uint32_t leaf, std::uint32_t subleaf) const;
    const nb_emulator_info& machine() const { return machine_; }
    // An instruction of an extension the model does not have ran (guest_isa.h); true for the process's first, whose
    // function the caller then names.
    bool note_missing_instruction(std::uint64_t pc, const char* extension);
    void name_first_missing(const char* symbol);

    void finish();
    // netburst-run record (program_file.h, "sample"): whether this run samples, the process image's header line,
    // and its last lines once the program has ended (finish() first). Map lines and `end` are the host's, written
    // through sample_writer() after sampling_finish().
    bool sampling() const { return sampler_ != nullptr; }
    void sampling_begin(std::uint64_t pid, const char* exe);
    void sampling_finish();
    SampleWriter& sample_writer() { return sampler_->writer(); }
    std::size_t results(char* buffer, std::size_t capacity, bool final_run, std::uint64_t pid);
    std::uint64_t instructions() const;
    // The emulated clock's cycle (Emulator::clock), every instruction counted so far included.
    Cycle cycles_now() {
        settle();
        return emu_->clock();
    }
    // The program read the clock (rdtsc, a time system call): the region it times may start here (clock_read).
    void clock_read();
    // For -v: how many instructions (the synthetic kernel paths included) ran in the timing tier, which costs
    // about ten times the functional tier per instruction; and how many times another guest thread was installed.
    std::uint64_t timed_instructions() const { return emu_->timed_instructions(); }
    std::uint64_t clock_half_width() const { return emu_->clock_half_width(); }
    const MemoProbe* memo_probe() const { return emu_->memo_probe(); }
    std::uint64_t thread_switches() const { return thread_switches_; }

private:
    ThreadContext& context(unsigned tid);
    void execute(const Instruction& insn);
    void record(const Instruction& insn);
    void execute_rep(const InsnInfo& info, unsigned bits, const Instruction& insn);
    void look_up_run(InsnInfo* head);
    void finish_rep();
    void run_kernel_path(std::uint64_t return_address);
    void run_path(KernelPath& path, std::uint64_t return_address);
    void take_timer_interrupt(std::uint64_t return_address);
    // The current thread's count reached event_at_ (before the instruction at pc): a timer interrupt, the next
    // phase of --timing=sampled's schedule, or both. Returns whether the tier changed.
    bool at_event(std::uint64_t pc);
    void update_event_at();
    // --timing=sampled: the program's instructions so far (every thread), the estimates brought up to them, the
    // schedule's next phase, and a window opened now because a counter has no rate yet.
    std::uint64_t program_total() const { return total_base_ + count_; }
    // The schedule's counts only grow, across a fork too (the child's own counts start from zero).
    void settle() {
        emu_->settle(program_total(), forked_syscalls_ + syscalls_, forked_interrupts_ + timer_interrupts_);
    }
    void next_phase();
    void open_window_if_wanted();
    std::uint64_t window_start() const;
    void next_period();
    void open_window();
    bool take_clock_window(std::uint64_t total);
    void counter_accessed(std::uint32_t msr);
    void install(unsigned tid);
    void start_fresh(ThreadContext& t);
    void release_pmu(ThreadContext& t);
    // Resets `pmu` to a fresh one programmed with the writes of program PMU `index` for logical processor lp
    // (-1: both), counting from `now`.
    void program_observer(Pmu& pmu, unsigned index, int lp, Cycle now);
    void attach_observers(Pmu* const* observers);
    unsigned num_observers() const { return program_ ? program_->num_pmus - 1 : 0; }
    void switch_out();
    // Moves the PMIs the current thread's PMU has taken into its queue and signals it (only when it named a
    // signal: a run without PAPI overflow, and netburst-run record, leave them to the sampler or to nobody).
    void deliver_pmis();
    // The current thread after deliver_pmis (what the instructions before a request raised and wrote); nullptr
    // when no thread is current.
    ThreadContext* delivered();
    // Adds the values of the program's events of PMU `index` on logical processor `lp` (both, for the CPU-wide
    // PMU) to sums.
    // Under --timing=sampled an estimated event's squared half-width adds to half2 (threads' estimates are
    // independent) and its flag to estimated.
    struct EventSums {
        std::uint64_t values[EventProgram::kMaxEvents] = {};
        bool unsupported[EventProgram::kMaxEvents] = {};
        bool estimated[EventProgram::kMaxEvents] = {};
        double half2[EventProgram::kMaxEvents] = {};
        bool unbounded[EventProgram::kMaxEvents] = {};
    };
    void read_events(Pmu& pmu, unsigned index, Cycle now, int lp, EventSums* sums);
    // The same for a thread's (or the CPU-wide) PMU and its observers.
    void read_all_events(Pmu& pmu, Pmu* const* observers, Cycle now, int lp, EventSums* sums);
    bool counts_kernel(Pmu& pmu, Cycle now, unsigned lp, unsigned counter);
    bool unsupported(Pmu& pmu, Cycle now, unsigned lp, unsigned counter);
    void flush_recording();
    // The exact-count PMU of thread t for the sampler (an observer of the same core), or nullptr.
    const Pmu* exact_pmu(const ThreadContext& t) const;
    const char* start_sampling();

    nb_rt_config config_{};
    nb_emulator_info machine_{};   // describe_machine(): what the guest may learn of the machine
    MissingInstructions missing_{};
    Emulator* emu_ = nullptr;
    Pmu* fresh_pmu_ = nullptr;   // the PMU as reset() leaves it (with the program, CPU-wide): what a thread gets
    Pmu* blank_pmu_ = nullptr;   // the PMU as reset() leaves it: what an observer starts from
    Pmu* observers_[Emulator::kMaxObservers] = {};  // CPU-wide mode: PMUs 1 and up
    EventProgram* program_ = nullptr;
    Sampler* sampler_ = nullptr;  // netburst-run record: the program's sampling counters and their exact twins
    bool program_taken_ = false;  // the program wrote a register of program_ (ProcessResults::pmu_taken)
    ThreadContext* threads_ = nullptr;
    unsigned current_ = 0;       // the thread whose PMU is installed (0: none)
    std::uint8_t lp_ = 0;        // its logical processor
    std::uint64_t count_ = 0;    // instructions of the current thread since it was installed
    // The value of count_ at which the current thread's next timer interrupt is due (no tick: never).
    std::uint64_t tick_at_ = ~std::uint64_t{0};
    // --timing=sampled's schedule (doc/sampled-timing.md): in every period a window of warm_ instructions of
    // detailed warming and a measured unit of unit_, the functional tier in between. Periods (the current one
    // starts at period_start_, period_len_ long) grow from period_min_ to period_ (--sample-period) with the run.
    // The phase ends when program_total() reaches phase_end_; phase_at_ is that point in count_'s terms, and
    // event_at_ the nearer of it and tick_at_.
    static constexpr std::uint64_t kUnitsPerRun = 1000;  // a stated assumption (doc/sampled-timing.md)
    enum class Phase : std::uint8_t { Functional, Warm, Unit };
    Phase phase_ = Phase::Functional;
    std::uint64_t phase_end_ = 0;
    std::uint64_t unit_start_ = 0;
    std::uint64_t timed_until_ = 0;  // no functional phase before this program_total() (counter_accessed)
    // Windows clock_read opened, and whether the current window is one.
    std::uint64_t clock_windows_ = 0;
    bool clock_window_ = false;
    bool clock_read_in_unit_ = false;  // the clock was read during the current unit
    // A stated assumption: such windows take at most a fifth of the run (the timing tier costs about 18 times the
    // functional tier per instruction, so a program that reads its clock all the time runs at most about 4.6 times
    // the functional tier's time; the dynamic loader's reads of the time stamp counter, four in its first 120,000
    // instructions, must leave room for a region the program times right after it starts).
    static constexpr std::uint64_t kClockWindowShare = 5;
    std::uint64_t period_ = 0, warm_ = 0, unit_ = 0, head_ = 0;
    std::uint64_t period_min_ = 0, period_start_ = 0, period_len_ = 0, period_index_ = 0;
    std::uint64_t phase_at_ = ~std::uint64_t{0};
    std::uint64_t event_at_ = ~std::uint64_t{0};
    std::uint64_t total_base_ = 0;  // program_total() less the current thread's count_

    // A rep-prefixed string instruction whose iterations are still arriving (one record per iteration).
    const InsnInfo* rep_info_ = nullptr;
    Instruction rep_insn_{};
    RegisterSnapshot rep_regs_{};  // its registers at the first iteration's start, when it came with them
    // The registers of the instruction being run, copied from its record (consume_loop).
    RegisterSnapshot regs_{};
    std::uint64_t rep_iterations_ = 0;

    KernelPath* kernel_ = nullptr;     // [2], the system-call path of each logical processor
    KernelPath* interrupt_ = nullptr;  // [2], the timer-interrupt path of each logical processor

    // Sums over threads that have exited (per-thread PMUs).
    EventSums exited_{};
    std::uint64_t exited_instructions_ = 0;
    std::uint64_t threads_ran_ = 0;
    std::uint64_t syscalls_ = 0;
    std::uint64_t timer_interrupts_ = 0;
    std::uint64_t forked_syscalls_ = 0, forked_interrupts_ = 0;  // the parents' before this process's fork
    std::uint64_t thread_switches_ = 0;
    int pmi_threads_ = 0;  // threads that take their PMU's interrupts as signals
    bool finished_ = false;

    // --record: the instruction stream in the binary trace encoding.
    static constexpr std::size_t kRecordBuffer = 1 << 16;
    std::uint8_t* record_ = nullptr;
    std::size_t record_used_ = 0;
    trace::CodecState codec_{};
};

}  // namespace netburst::emu::vg
