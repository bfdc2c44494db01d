#include "emulator/valgrind/runtime.h"

#include <initializer_list>
#include <new>

#include "emulator/protocol/results_file.h"
#include "emulator/x86/machine_info.h"
#include "table/msr_map.h"
#include "table/registers.h"

namespace netburst::emu::vg {

namespace {

// The guest is the tool's own architecture in each of its builds (nb_guest.h): an i386 program runs in the 32-bit
// build, and its system calls and ticks take the i386 kernel's paths.
constexpr KernelAbi kGuestKernel = sizeof(void*) == 4 ? KernelAbi::kLinux32 : KernelAbi::kLinux64;

// Objects come from the host allocator (Valgrind's), 16-byte aligned; anything wider is aligned by hand. *raw
// receives the allocation, for nb_host_free.
template <typename T>
T* make_object(void** raw = nullptr) {
    static_assert(alignof(T) <= 64, "over-aligned type");
    void* memory = nb_host_malloc(sizeof(T) + alignof(T));
    if (!memory) nb_host_panic("out of memory");
    if (raw) *raw = memory;
    auto address = reinterpret_cast<std::uintptr_t>(memory);
    address = (address + alignof(T) - 1) & ~static_cast<std::uintptr_t>(alignof(T) - 1);
    return new (reinterpret_cast<void*>(address)) T();
}

unsigned floor_log2(std::uint64_t v) {
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        ++n;
    }
    return n;
}

bool read_guest(void*, std::uint64_t address, void* buffer, unsigned size) {
    return nb_host_read_guest(address, buffer, size) != 0;
}
bool write_guest(void*, std::uint64_t address, const void* buffer, unsigned size) {
    return nb_host_write_guest(address, buffer, size) != 0;
}

int result_code(MsrResult r) { return r == MsrResult::Ok ? NB_OK : NB_GP_FAULT; }

// A counter's value or its CCCR (which starts and stops it).
bool counter_or_cccr(std::uint32_t msr) {
    for (const CounterDef& c : kCounters)
        if (c.counter_msr == msr || c.cccr_msr == msr) return true;
    return false;
}

void* sampler_alloc(std::size_t size) { return nb_host_malloc(size); }
void sampler_free(void* p) { nb_host_free(p); }
void sampler_write(const void* bytes, std::size_t size) { nb_host_write_samples(bytes, size); }
bool sampler_describe(std::uint64_t ip, SourcePlace* out) {
    struct nb_source_place place {};
    if (!nb_host_describe_ip(ip, &place)) return false;
    out->function = place.function;
    out->file = place.file;
    out->dir = place.dir;
    out->line = place.line;
    return true;
}

}  // namespace

// netburst-run record: its event program names the sampling counters on PMU 0 and their exact-count twins on
// another PMU.
const char* ToolRuntime::start_sampling() {
    const SampleSpec& spec = program_->sample;
    if (config_.hyper_threading || config_.cpu_wide) return "sampling runs one PMU per thread, without --ht";
    if (spec.exact_pmu == 0 || spec.exact_pmu >= program_->num_pmus) return "the exact-count PMU is not in the program";
    sampler_ = make_object<Sampler>();
    SamplerHost host;
    host.write = sampler_write;
    host.alloc = sampler_alloc;
    host.release = sampler_free;
    host.describe = sampler_describe;
    if (const char* error = sampler_->init(spec, emu_->config().long_mode, host)) return error;
    // PEBS records go to the sampler's private DS area, never into the program's memory: every thread's PMU 0 is
    // a copy of this one.
    if (spec.pebs_event() >= 0) emu_->pmu().set_guest_memory(sampler_->ds_memory());
    return nullptr;
}

const Pmu* ToolRuntime::exact_pmu(const ThreadContext& t) const {
    if (!sampler_) return nullptr;
    return t.observers[sampler_->spec().exact_pmu - 1];
}

void ToolRuntime::sampling_begin(std::uint64_t pid, const char* exe) {
    if (!sampler_) return;
    // Where the kernel paths' code lies, so that netburst-run tells their samples from the program's whichever
    // kernel (x86-64 or i386) the paths are shaped like.
    std::uint64_t low = 0, high = 0;
    if (config_.kernel_model) {
        low = ~std::uint64_t{0};
        for (unsigned lp = 0; lp < 2; ++lp)
            for (const KernelPath* path : {&kernel_[lp], &interrupt_[lp]})
                for (unsigned i = 0; i < path->length; ++i) {
                    const Instruction& insn = path->insns[i];
                    if (insn.pc < low) low = insn.pc;
                    if (insn.pc + insn.length > high) high = insn.pc + insn.length;
                }
    }
    sampler_->begin_process(pid, exe, low, high);
}

void ToolRuntime::sampling_finish() {
    if (!sampler_) return;
    if (current_ != 0) sampler_->drain(*emu_, lp_);
    std::uint64_t chain_overflow = 0;
    for (unsigned i = 0; i < config_.max_threads; ++i) {
        ShadowStack* stack = threads_[i].stack;
        if (!stack) continue;
        chain_overflow += stack->overflowed();
        if (threads_[i].live) sampler_->close_frames(*stack);
    }
    sampler_->finish(emu_->now(), chain_overflow);
}

const char* ToolRuntime::init(const nb_rt_config& config) {
    config_ = config;
    if (!model_exists(config.model)) return "--model: not a NetBurst model (0, 1, 2, 3, 4 or 6)";
    emu_ = make_object<Emulator>();
    EmulatorConfig ec;
    ec.machine.model = config.model;
    ec.machine.hyper_threading = config.hyper_threading != 0;
    ec.machine.has_l3 = config.with_l3 != 0;
    ec.machine.emulated_clock = config.emulated_clock != 0;
    ec.sampled_timing = config.timing_sampled != 0;
    // An i386 program (the x86 build) runs the processor in 32-bit mode, whose PEBS records and DS area have the
    // 32-bit layout (table/msr_map.h).
    ec.long_mode = kDsLayoutNative.field_bytes == kDsLayout64.field_bytes;
    // The schedule runs for sampled counters and for the emulated clock, which it drives whenever no counter keeps
    // every instruction timed (emulator/sampled_clock.h).
    if (config.timing_sampled || config.emulated_clock) {
        if (config.sample_unit == 0 || config.sample_warm + config.sample_unit > config.sample_period)
            return "the sampled schedule needs --sample-unit >= 1 and --sample-warm + --sample-unit <= "
                   "--sample-period";
        period_ = config.sample_period;
        warm_ = config.sample_warm;
        unit_ = config.sample_unit;
        head_ = config.sample_head > warm_ + unit_ ? config.sample_head : warm_ + unit_;
        // Short runs need as many units as long ones: periods start at ten windows and grow with the run.
        period_min_ = 10 * (warm_ + unit_) < period_ ? 10 * (warm_ + unit_) : period_;
        period_len_ = period_min_;
        phase_end_ = window_start();  // or earlier, when a counter asks
    }
    if (config.pmi_skid_cycles >= 0) ec.machine.pmi_skid_cycles = static_cast<unsigned>(config.pmi_skid_cycles);
    emu_->reset(ec);
    open_window_if_wanted();  // the clock has no rate yet: its first unit measures the program's first instructions
    describe_machine(ec.machine, &machine_);
    GuestMemory memory;
    memory.read = read_guest;
    memory.write = write_guest;
    emu_->pmu().set_guest_memory(memory);
    fresh_pmu_ = make_object<Pmu>();
    *fresh_pmu_ = emu_->pmu();
    blank_pmu_ = make_object<Pmu>();
    *blank_pmu_ = emu_->pmu();

    threads_ = static_cast<ThreadContext*>(nb_host_malloc(sizeof(ThreadContext) * config.max_threads));
    if (!threads_) nb_host_panic("out of memory");
    for (unsigned i = 0; i < config.max_threads; ++i) new (&threads_[i]) ThreadContext();

    kernel_ = static_cast<KernelPath*>(nb_host_malloc(sizeof(KernelPath) * 2));
    interrupt_ = static_cast<KernelPath*>(nb_host_malloc(sizeof(KernelPath) * 2));
    if (!kernel_ || !interrupt_) nb_host_panic("out of memory");
    for (unsigned lp = 0; lp < 2; ++lp) {
        new (&kernel_[lp]) KernelPath();
        build_kernel_path(lp, &kernel_[lp], kGuestKernel);
        new (&interrupt_[lp]) KernelPath();
        build_timer_interrupt_path(lp, &interrupt_[lp], kGuestKernel);
    }
    if (config.recording) {
        record_ = static_cast<std::uint8_t*>(nb_host_malloc(kRecordBuffer));
        if (!record_) nb_host_panic("out of memory");
        for (unsigned i = 0; i < sizeof trace::kBinaryMagic; ++i) record_[record_used_++] = trace::kBinaryMagic[i];
    }
    if (config.memo_probe) {
        unsigned log2_slots = MemoProbe::kLog2Ways;  // the memo's capacity in states, rounded down to a power of two
        while ((std::uint64_t{2} << log2_slots) <= config.memo_probe_states) ++log2_slots;
        auto* table = static_cast<std::uint64_t*>(nb_host_malloc(sizeof(std::uint64_t) << log2_slots));
        void* raw = nb_host_malloc(sizeof(MemoProbe));
        if (!table || !raw) nb_host_panic("out of memory");
        __builtin_memset(table, 0, sizeof(std::uint64_t) << log2_slots);
        emu_->attach_memo_probe(new (raw) MemoProbe(table, log2_slots));
    }
    return nullptr;
}

const char* ToolRuntime::load_program(const char* text, std::size_t length) {
    program_ = make_object<EventProgram>();
    unsigned line = 0;
    if (const char* error = parse_event_program(text, length, program_, &line)) return error;
    if (!config_.hyper_threading)
        for (unsigned i = 0; i < program_->num_events; ++i)
            if (program_->events[i].lp != 0) return "an event on logical processor 1 without --ht";
    if (num_observers() > Emulator::kMaxObservers) return "more PMUs than the emulator can attach";
    if (program_->sample.enabled) {
        if (const char* error = start_sampling()) return error;
    }
    // The CPU-wide PMUs are programmed once, for every logical processor.
    if (config_.cpu_wide) {
        for (unsigned lp = 0; lp < 2; ++lp)
            for (unsigned i = 0; i < program_->num_writes[lp]; ++i) {
                const ProgramWrite& w = program_->writes[lp][i];
                if (w.pmu == 0 && emu_->write_msr(lp, w.msr, w.value) != MsrResult::Ok)
                    return "the emulator refused a wrmsr of the program (#GP)";
            }
        for (unsigned k = 0; k < num_observers(); ++k) {
            observers_[k] = make_object<Pmu>();
            program_observer(*observers_[k], k + 1, -1, emu_->now());
        }
        attach_observers(observers_);
    }
    *fresh_pmu_ = emu_->pmu();
    return nullptr;
}

ThreadContext& ToolRuntime::context(unsigned tid) {
    if (tid >= config_.max_threads) nb_host_panic("thread id out of range");
    ThreadContext& t = threads_[tid];
    if (!t.live) {
        release_pmu(t);  // a reused thread id starts afresh
        t.live = true;
        t.ran = false;
        t.instructions = 0;
        t.next_tick = config_.timer_tick;
        t.lp = config_.hyper_threading ? static_cast<std::uint8_t>((tid - 1) & 1) : 0;
    }
    return t;
}

// ---- The feed ------------------------------------------------------------------------------------------------

void ToolRuntime::execute(const Instruction& insn) {
    emu_->execute(insn);
    if (record_) record(insn);
    if (sampler_) sampler_->after(*emu_, lp_, insn);
}

void ToolRuntime::record(const Instruction& insn) {
    if (record_used_ + trace::kMaxRecordBytes > kRecordBuffer) flush_recording();
    record_used_ += trace::encode_record(insn, &codec_, record_ + record_used_);
}

void ToolRuntime::flush_recording() {
    if (record_ && record_used_) nb_host_write_record(record_, record_used_);
    record_used_ = 0;
}

void ToolRuntime::consume(const std::uint64_t* p, const std::uint64_t* end) {
    // A timer interrupt is taken when the thread's instruction count reaches the tick, before the next instruction
    // (doc/emulator-kernel-model.md, "Timer interrupts"): where the batches end, which depends on how Valgrind cut
    // the code into blocks, does not matter.
    tick_at_ = ~std::uint64_t{0};
    if (config_.timer_tick != 0 && current_ != 0) {
        const ThreadContext& t = threads_[current_];
        tick_at_ = t.next_tick > t.instructions ? t.next_tick - t.instructions : 0;
    }
    update_event_at();
    // Only MSR accesses and the sampled schedule's phases change the tier, so the commonest case, the functional
    // tier without --record, gets a loop of its own; a phase that changes the tier inside a batch hands the rest
    // of it to the other loop.
    while (p < end) {
        if (sampler_)
            p = consume_loop<false, true>(p, end);  // sampling keeps the timing tier (its counter raises interrupts)
        else if (emu_->timing() || record_)
            p = consume_loop<false, false>(p, end);
        else
            p = consume_loop<true, false>(p, end);
    }
    // An interrupt is raised inside the batch but sent after it: the signal cannot reach the guest before Valgrind
    // next polls anyway, and the record carries the modelled return address.
    if (current_ != 0 && !sampler_ && threads_[current_].pmi_signal != 0) deliver_pmis();
}

namespace {

static_assert(sizeof(RegisterSnapshot) == NB_SNAPSHOT_WORDS * sizeof(std::uint64_t),
              "a record's register words are a RegisterSnapshot");

// What the tool tells the program about a record the PMU wrote: the fields that hold the machine's values. EIP
// always; EFLAGS and every general register when the sampled instruction came with its registers (the translations
// carry them while the program arms PEBS: nb_instrument.c), and the sampled uop's data address when it has one.
nb_pebs_note note_of(const PebsRecord& r, bool long_mode) {
    nb_pebs_note note{};
    note.record = r.address;
    const unsigned fields = long_mode ? 18 : 10;  // pebs.cpp's record layouts
    note.valid = r.has_registers ? (1u << fields) - 1 : 1u << 1;
    if (r.has_data_address) note.data_address = r.data_address;
    return note;
}

}  // namespace

void ToolRuntime::deliver_pmis() {
    ThreadContext& t = threads_[current_];
    if (t.pmi_signal == 0 || config_.cpu_wide) return;
    // The records of the program's PEBS (the component arms it for PAPI's precise overflow), completed and kept
    // until the program takes them.
    PebsRecord records[8];
    const bool long_mode = emu_->config().long_mode;
    for (;;) {
        const unsigned n = emu_->pmu().take_pebs_records(records, 8);
        if (n == 0) break;
        // When the notes are full, the oldest loses its note.
        for (unsigned i = 0; i < n; ++i) t.pebs_notes.push_evicting(note_of(records[i], long_mode));
    }
    PmiRecord taken[8];
    bool queued = false;
    for (;;) {
        const unsigned n = emu_->pmu().take_pmis(taken, 8);
        if (n == 0) break;
        for (unsigned i = 0; i < n; ++i) {
            if (t.pmis.full()) {
                // The guest has not fetched for a long time: the newest entry stands for both (the handler
                // reloads every counter named, which is what a merged interrupt line does on hardware too).
                PmiRecord& last = t.pmis.newest();
                last.overflowed |= taken[i].overflowed;
                last.pebs_threshold = last.pebs_threshold || taken[i].pebs_threshold;
            } else {
                t.pmis.push(taken[i]);
            }
            queued = true;
        }
    }
    if (queued) nb_host_signal_thread(t.lwp, t.pmi_signal);
}

void ToolRuntime::set_pmi_signal(int signo) {
    if (current_ == 0) return;
    ThreadContext& t = threads_[current_];
    if ((t.pmi_signal != 0) != (signo != 0)) {
        pmi_threads_ += signo != 0 ? 1 : -1;
        nb_host_short_batches(pmi_threads_ > 0);
    }
    t.pmi_signal = signo;
    t.lwp = nb_host_gettid();
    t.pmis.clear();
    t.pebs_notes.clear();
    if (!sampler_) {  // records from before do not belong to the interrupts to come
        PebsRecord records[8];
        while (emu_->pmu().take_pebs_records(records, 8) != 0) {
        }
    }
    if (signo == 0 && !sampler_) {
        PmiRecord dropped[8];
        while (emu_->pmu().take_pmis(dropped, 8) != 0) {
        }
    }
}

bool ToolRuntime::pebs_armed() const {
    if (sampler_) return false;  // netburst-run record's PEBS: perf.data has no registers to fill
    if (config_.cpu_wide) return emu_->pmu().pebs_enabled();
    for (unsigned i = 0; i < config_.max_threads; ++i)
        if (threads_[i].live && threads_[i].pmu && threads_[i].pmu->pebs_enabled()) return true;
    return false;
}

ThreadContext* ToolRuntime::delivered() {
    if (current_ == 0) return nullptr;
    deliver_pmis();
    return &threads_[current_];
}

int ToolRuntime::take_pmi(nb_pmi* out) {
    ThreadContext* t = delivered();
    PmiRecord r;
    if (!t || t->pmis.take(&r, 1) == 0) return NB_NO_PMI;
    out->eip = r.eip;
    out->cycle = r.cycle;
    out->overflowed = r.overflowed;
    out->logical_processor = r.thread;
    out->pebs = r.pebs_threshold ? 1 : 0;
    out->reserved = 0;
    return NB_OK;
}

int ToolRuntime::take_pebs(nb_pebs_note* out) {
    ThreadContext* t = delivered();
    if (!t || t->pebs_notes.take(out, 1) == 0) return NB_NO_PMI;
    out->rewound = 0;
    // The guest's layout is this build's (msr_map.h: kDsLayoutNative); fields are little-endian, so a 4-byte one
    // lands in the low half of a zeroed word.
    std::uint64_t ds = 0, base = 0, index = 0;
    if (t->pebs_notes.size() == 0 && emu_->read_msr(lp_, kMsrDsArea, &ds) == MsrResult::Ok &&
        nb_host_read_guest(ds + kDsPebsBase, &base, kDsFieldBytes) &&
        nb_host_read_guest(ds + kDsPebsIndex, &index, kDsFieldBytes) && index == out->record + kPebsRecordBytes &&
        index > base && nb_host_write_guest(ds + kDsPebsIndex, &base, kDsFieldBytes))
        out->rewound = static_cast<std::uint32_t>((index - base) / kPebsRecordBytes);
    return NB_OK;
}

namespace {
// A guarded access that did not happen: the instruction has fewer operands (another shape).
Instruction without_absent_accesses(const Instruction& insn, unsigned words) {
    Instruction partial = insn;
    unsigned n = 0;
    for (unsigned k = 0; k < words; ++k)
        if (insn.mem[k].address != NB_NO_ACCESS) partial.mem[n++] = insn.mem[k];
    partial.num_mem = static_cast<std::uint8_t>(n);
    return partial;
}

// A run's instructions (the templates of the infos from `head` on) through the functional tier as one group plan.
// Out of line: the group's work has the registers to itself (the record loop around it is large).
__attribute__((noinline)) void run_group(Emulator& emu, unsigned lp, unsigned cpl, const GroupPlan& plan,
                                         InsnInfo* head) {
    // The members' templates as they are: the functional tier takes the logical processor from the run (an
    // Instruction's `thread` is read on entry only).
    emu.execute_group_functional(lp, cpl, plan, [head](unsigned k) -> const Instruction& { return head[k].tmpl; });
}

// The run of `head` (look_up_run) from its record on, if all of it came: word 0 of head's record was read (its
// exit bits `bits`), `p` is at the word after it. Writes each record's addresses and outcome into its
// instructions' templates and returns where the run's records end; nullptr (templates partly written, which the
// record-by-record way writes again) when a record is missing (the translation was left early, through a fault)
// or an access was absent (a guarded access that did not happen: another shape).
__attribute__((always_inline)) inline const std::uint64_t* take_run(InsnInfo* head, unsigned bits,
                                                                    const std::uint64_t* p,
                                                                    const std::uint64_t* end) {
    InsnInfo* const stop = head + head->run_members;
    for (InsnInfo* r = head;;) {
        const unsigned words = r->mem_words;
        for (unsigned w = 0; w < words; ++w) {
            if (p[w] == NB_NO_ACCESS) return nullptr;
            r->tmpl.mem[w].address = p[w];
        }
        p += words;
        if (r->exit_at != InsnInfo::kNoExit) {
            InsnInfo* const branch = r + r->exit_at;
            branch->tmpl.taken = ((bits ^ (branch->invert ? 1u : 0u)) & 1u) != 0;
        }
        r += r->span;
        if (r == stop) return p;
        // The next record of the run, or not.
        if (p == end || (*p & ~std::uint64_t{7}) != info_word(r)) return nullptr;
        bits = static_cast<unsigned>(*p++ & NB_EXIT_BITS);
    }
}
}  // namespace

template <bool kQuietFunctional, bool kSampling>
const std::uint64_t* ToolRuntime::consume_loop(const std::uint64_t* p, const std::uint64_t* end) {
    // The hot loop: locals for what stays put, and each instruction's dynamic fields written into its info's
    // template in place (the runtime owns the infos and runs one instruction at a time) instead of a copy.
    Emulator& emu = *emu_;
    const std::uint8_t lp = lp_;
    std::uint64_t executed = 0;
    // One instruction with its plan, the fast way.
    const auto run = [&](const Instruction& insn, const UopPlan& plan) __attribute__((always_inline)) {
        if constexpr (kQuietFunctional) {
            emu.execute_functional(insn, plan);
        } else {
            emu.execute(insn, plan);
            if (record_) record(insn);
            if constexpr (kSampling) sampler_->after(emu, lp, insn);
        }
    };
    // The same for an instruction whose plan may be missing.
    const auto run_any = [&](const Instruction& insn, const UopPlan* plan) __attribute__((always_inline)) {
        emu.execute(insn, plan);
        if (record_) record(insn);
        if constexpr (kSampling) sampler_->after(emu, lp, insn);
    };
    // The timer interrupt or schedule phase due before the instruction at `pc`, if the thread's count has reached
    // it (a rep instruction still collecting its iterations is not interrupted: it counts when it ends). True
    // when the tier changed.
    const auto tick_point = [&](std::uint64_t pc) __attribute__((always_inline)) {
        if (__builtin_expect(count_ + executed >= event_at_, 0) && rep_info_ == nullptr) {
            count_ += executed;
            executed = 0;
            return at_event(pc);
        }
        return false;
    };
    // Whether this loop is the wrong one for the tier now (the other loop takes over).
    const auto wrong_loop = [&]() __attribute__((always_inline)) {
        return kQuietFunctional ? emu.timing() : (!kSampling && !record_ && !emu.timing());
    };
    while (p < end) {
        const std::uint64_t word = *p++;
        auto* info = reinterpret_cast<InsnInfo*>(word & ~std::uint64_t{7});
        const unsigned bits = static_cast<unsigned>(word & NB_EXIT_BITS);
        if (__builtin_expect(rep_info_ != nullptr, 0) && info->tmpl.pc != rep_info_->tmpl.pc) finish_rep();
        if (tick_point(info->tmpl.pc) && wrong_loop()) {
            count_ += executed;
            return p - 1;  // this record again, in the other loop
        }
        Instruction& insn = info->tmpl;
        insn.thread = lp;
        if constexpr (kQuietFunctional) {
            // The run of records from here to the translation's first exit, as one unit when all of it came and
            // no tick falls inside it.
            if (__builtin_expect(!info->run_looked_up, 0)) look_up_run(info);
            if (info->run_plan != nullptr && count_ + executed + info->run_members <= event_at_) {
                const std::uint64_t* q = take_run(info, bits, p, end);
                if (__builtin_expect(q != nullptr, 1)) {
                    run_group(emu, lp, insn.cpl, *info->run_plan, info);
                    executed += info->run_members;
                    p = q;
                    continue;
                }
            }
        }
        switch (info->fast) {
        case InsnInfo::Fast::Plain:
            ++executed;
            run(insn, *info->plan);
            continue;
        case InsnInfo::Fast::OneAccess:
            if (*p == NB_NO_ACCESS) break;  // the general way below
            insn.mem[0].address = *p++;
            ++executed;
            run(insn, *info->plan);
            continue;
        case InsnInfo::Fast::Group: {
            // One record for a run (nb_runtime.h): the first instruction's address words, the last one's exit.
            const unsigned n = info->group;
            bool complete = true;
            for (unsigned w = 0; w < info->mem_words; ++w) {
                if (p[w] == NB_NO_ACCESS) complete = false;
                insn.mem[w].address = p[w];
            }
            p += info->mem_words;
            InsnInfo& last = info[n - 1];
            if (last.branch_mode == NB_BR_EXIT_TAKEN || last.branch_mode == NB_BR_EXIT_NOT_TAKEN)
                last.tmpl.taken = ((bits ^ (last.invert ? 1u : 0u)) & 1u) != 0;
            ++executed;
            // One by one (a tick may fall between two of them).
            if (!complete)
                execute(without_absent_accesses(insn, info->mem_words));
            else if (info->plan != nullptr)
                run(insn, *info->plan);
            else
                execute(insn);
            bool retiered = false;
            for (unsigned k = 1; k < n; ++k) {
                Instruction& member = info[k].tmpl;
                if (tick_point(member.pc)) retiered = true;
                ++executed;
                member.thread = lp;
                if (info[k].plan != nullptr && !(kQuietFunctional && retiered))
                    run(member, *info[k].plan);
                else
                    execute(member);  // either tier
            }
            if (retiered && wrong_loop()) {
                count_ += executed;
                return p;
            }
            continue;
        }
        case InsnInfo::Fast::ExitBranch:
            insn.taken = ((bits ^ (info->invert ? 1u : 0u)) & 1u) != 0;
            ++executed;
            run(insn, *info->plan);
            continue;
        case InsnInfo::Fast::None: break;
        }
        if (info->simple) {
            ++executed;
            run_any(insn, info->plan);
            continue;
        }
        const std::uint64_t* addresses = p;
        p += info->mem_words;
        bool complete = true;
        for (unsigned k = 0; k < info->mem_words; ++k) {
            if (addresses[k] == NB_NO_ACCESS) complete = false;
            insn.mem[k].address = addresses[k];
        }
        if (info->dynamic_target) insn.target = *p++;
        if (info->snapshot) {
            __builtin_memcpy(static_cast<void*>(&regs_), p, sizeof regs_);  // the record words are its fields
            insn.regs = &regs_;
            p += NB_SNAPSHOT_WORDS;
        }
        if (info->branch_mode == NB_BR_EXIT_TAKEN) insn.taken = (bits & 1) != 0;
        else if (info->branch_mode == NB_BR_EXIT_NOT_TAKEN) insn.taken = (bits & 1) == 0;
        if (!complete) {
            const Instruction partial = without_absent_accesses(insn, info->mem_words);
            if (info->rep_mode != NB_REP_NONE) {
                execute_rep(*info, bits, partial);
                continue;
            }
            ++executed;
            execute(partial);
            if (info->syscall) run_kernel_path(insn.pc + insn.length);
            continue;
        }
        if (info->rep_mode != NB_REP_NONE) {
            execute_rep(*info, bits, insn);  // counted once per instruction, not per iteration
            continue;
        }
        ++executed;
        run_any(insn, info->plan);
        if (info->syscall) run_kernel_path(insn.pc + insn.length);
    }
    count_ += executed;
    return p;
}

// The records a translation writes in a row from `head` on, as long as they have a fast kind (Plain, OneAccess,
// Group, ExitBranch: address words and exit bits only, every instruction with a stable plan), up to and including
// the first that ends with a conditional branch (it may leave the translation) and at most GroupPlan::kMaxMembers
// instructions: one group plan for all of them (Emulator::stable_group), when there are at least two.
void ToolRuntime::look_up_run(InsnInfo* head) {
    head->run_looked_up = true;
    const UopPlan* plans[GroupPlan::kMaxMembers];
    std::uint64_t pcs[GroupPlan::kMaxMembers];
    unsigned members = 0;
    for (InsnInfo* r = head;;) {
        if (r->fast == InsnInfo::Fast::None) break;
        const unsigned n = r->fast == InsnInfo::Fast::Group ? r->group : 1;
        if (members + n > GroupPlan::kMaxMembers) break;
        bool planned = true;
        for (unsigned k = 0; k < n; ++k) planned = planned && r[k].plan != nullptr;
        if (!planned) break;
        for (unsigned k = 0; k < n; ++k, ++members) {
            plans[members] = r[k].plan;
            pcs[members] = r[k].tmpl.pc;
        }
        const InsnInfo& last = r[n - 1];
        const bool exits = last.branch_mode == NB_BR_EXIT_TAKEN || last.branch_mode == NB_BR_EXIT_NOT_TAKEN;
        r->span = static_cast<std::uint8_t>(n);
        r->exit_at = exits ? static_cast<std::uint8_t>(n - 1) : InsnInfo::kNoExit;
        if (exits || last.remaining == 0) break;
        r += n;
    }
    if (members < 2) return;
    head->run_members = static_cast<std::uint8_t>(members);
    head->run_plan = emu_->stable_group(plans, pcs, members);
}

// VEX runs a rep-prefixed string instruction one iteration per block execution, and once more with rCX zero to
// leave. The emulator wants one instruction with its iteration count and the first iteration's operands.
void ToolRuntime::execute_rep(const InsnInfo& info, unsigned bits, const Instruction& insn) {
    if (bits & 1) {  // rCX was zero on entry: no iteration; the instruction ends here
        if (rep_info_) {
            finish_rep();
        } else {
            Instruction empty = insn;
            empty.num_mem = 0;
            ++count_;
            execute(empty);
        }
        return;
    }
    // VEX unrolls the self-looping block, so consecutive iterations may come from different copies (infos) of
    // the same instruction: iterations are recognised by address.
    if (!rep_info_) {
        rep_info_ = &info;
        rep_insn_ = insn;
        rep_iterations_ = 0;
        if (insn.regs) {  // the registers at the first iteration's start are the instruction's
            rep_regs_ = *insn.regs;
            rep_insn_.regs = &rep_regs_;
        }
    }
    ++rep_iterations_;
    if (info.rep_mode == NB_REP_COND && !(bits & 2)) finish_rep();  // the compare ended the repetition
}

void ToolRuntime::finish_rep() {
    rep_insn_.rep_count_log2 = static_cast<std::uint8_t>(floor_log2(rep_iterations_));
    rep_info_ = nullptr;
    ++count_;
    execute(rep_insn_);
}

void ToolRuntime::run_kernel_path(std::uint64_t return_address) {
    ++syscalls_;
    if (!config_.kernel_model) return;
    run_path(kernel_[lp_], return_address);
}

// One synthetic kernel path on the current logical processor, returning to `return_address`.
void ToolRuntime::run_path(KernelPath& path, std::uint64_t return_address) {
    set_kernel_return(&path, return_address);
    for (unsigned i = 0; i < path.length; ++i) {
        path.insns[i].thread = lp_;
        execute(path.insns[i]);
    }
}

// The timer interrupt that fell due by the thread's instruction count (a tick every config_.timer_tick of its
// instructions; the kernel's own instructions do not advance it), returning to `return_address`.
void ToolRuntime::take_timer_interrupt(std::uint64_t return_address) {
    ThreadContext& t = threads_[current_];
    t.next_tick += config_.timer_tick;
    tick_at_ = t.next_tick - t.instructions;
    ++timer_interrupts_;
    run_path(interrupt_[lp_], return_address);
}

void ToolRuntime::update_event_at() {
    phase_at_ = ~std::uint64_t{0};
    if (period_ != 0) {
        const std::uint64_t total = program_total();
        phase_at_ = count_ + (phase_end_ > total ? phase_end_ - total : 0);
    }
    event_at_ = tick_at_ < phase_at_ ? tick_at_ : phase_at_;
}

bool ToolRuntime::at_event(std::uint64_t pc) {
    const bool timing = emu_->timing();
    if (count_ >= tick_at_) take_timer_interrupt(pc);
    if (count_ >= phase_at_) next_phase();
    update_event_at();
    return emu_->timing() != timing;
}

// Functional, then a window (warming, then the unit), then functional until the next period's start. Phases end at
// exact instruction counts, so the schedule is the same however Valgrind cut the program into blocks.
void ToolRuntime::next_phase() {
    const std::uint64_t total = program_total();
    settle();
    switch (phase_) {
    case Phase::Functional:
        phase_ = Phase::Warm;
        phase_end_ = total + warm_;
        emu_->set_detail(true);
        break;
    case Phase::Warm:
        phase_ = Phase::Unit;
        phase_end_ = total + unit_;
        unit_start_ = total;
        emu_->unit(true, 0);
        break;
    case Phase::Unit: {
        // A window a read of the clock opened (clock_read) stands for its period's own only when it covered that
        // one's start: only then is its unit a sample for the counters, and only then does the period move on.
        const bool stands_for_period = !clock_window_ || window_start() <= total;
        emu_->unit(false, total - unit_start_, stands_for_period);
        if (total < timed_until_) {  // a counter access asked for more: another window straight away
            phase_ = Phase::Warm;
            phase_end_ = total + warm_;
            clock_window_ = false;
            clock_read_in_unit_ = false;
            break;
        }
        if (clock_read_in_unit_) {  // the clock was read in this unit (clock_read): a window of what follows
            clock_read_in_unit_ = false;
            // It stands for a period's window as the one before it did (clock_window_ stays as it is).
            if (take_clock_window(total)) {
                phase_ = Phase::Warm;
                phase_end_ = total + warm_;
                break;
            }
        }
        phase_ = Phase::Functional;
        // The next period's window (one unit a period), skipping periods this window or a head covered.
        if (stands_for_period) {
            do next_period();
            while (period_start_ + period_len_ <= total);
        }
        clock_window_ = false;
        phase_end_ = window_start() > total ? window_start() : total;
        emu_->set_detail(false);
        open_window_if_wanted();  // a counter programmed during the window still has no rate
        break;
    }
    }
}

// A period's window starts at a pseudo-random offset inside it (a fixed sequence: runs repeat), so that the units
// of a loop whose length divides the period do not all fall on the same part of it (systematic sampling would then
// be biased, and the spread of the units would not show it).
std::uint64_t ToolRuntime::window_start() const {
    std::uint64_t z = (period_index_ + 1) * 0x9E3779B97F4A7C15ull;  // splitmix64's finaliser
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const std::uint64_t room = period_len_ - warm_ - unit_ + 1;
    return period_start_ + z % room;
}

// The run so far divided into kUnitsPerRun periods, within [period_min_, period_]: a run of any length gets about
// that many units once it is past period_min_ * kUnitsPerRun instructions, and no more than one a period_ after
// period_ * kUnitsPerRun. The emulated clock takes the same schedule: twice or four times sparser, it cost less, but
// regions of 15 to 100 million instructions timed with rdtsc read up to 6 and 9 % off (doc/sampled-timing.md, "The
// clock").
void ToolRuntime::next_period() {
    period_start_ += period_len_;
    ++period_index_;
    const std::uint64_t wanted = period_start_ / kUnitsPerRun;
    period_len_ = wanted < period_min_ ? period_min_ : wanted > period_ ? period_ : wanted;
}

// A counter became estimated with a selection that has no rate: its functional instructions would have nothing to
// be estimated with, so a window opens now instead of in the period.
void ToolRuntime::open_window_if_wanted() {
    if (period_ != 0 && emu_->wants_unit()) open_window();
}

void ToolRuntime::open_window() {
    if (period_ == 0 || phase_ != Phase::Functional) return;
    settle();
    phase_ = Phase::Warm;
    phase_end_ = program_total() + warm_;
    emu_->set_detail(true);
}

// Software read or wrote a counter, or started or stopped one (its CCCR): an interval of PAPI's starts or ends here.
// The next head_ instructions (at least a window's) run timed whatever the phase, so that an interval shorter than
// that is timed throughout (exact), and a longer one has units of its own code before any of it is estimated.
void ToolRuntime::counter_accessed(std::uint32_t msr) {
    if (period_ == 0 || !emu_->sampling_estimates() || !counter_or_cccr(msr)) return;
    timed_until_ = program_total() + head_;
    open_window();
}

// A program times a region with two reads of the clock. While the functional tier runs, the clock after the first
// read is estimated from the units before it, which measured whatever code ran before: a region shorter than a few
// periods would be timed mostly at another code's rate. So a read opens a window at once, and the region's own
// first unit sets the rate for the rest of it (the regression starts afresh too). Such windows take at most one
// instruction in kClockWindowShare of the run, so that a program that reads its clock all the time stays mostly in
// the functional tier. They come beside the periods' windows, which stay where they were.
void ToolRuntime::clock_read() {
    if (period_ == 0) return;
    // Read during a window's unit: the unit measures what ran before the read too, so another window follows it.
    if (phase_ == Phase::Unit && clock_windows_ != 0) clock_read_in_unit_ = true;
    if (emu_->timing() || phase_ != Phase::Functional || !take_clock_window(program_total())) return;
    clock_window_ = true;
    open_window();
}

// A window for a region the program times, if the budget (one instruction in kClockWindowShare of the run `total`)
// has room for it; the clock's estimate then starts the region afresh.
bool ToolRuntime::take_clock_window(std::uint64_t total) {
    if ((clock_windows_ + 1) * (warm_ + unit_) * kClockWindowShare > total) return false;
    ++clock_windows_;
    emu_->clock_region();
    return true;
}

std::uint64_t ToolRuntime::instructions() const {
    std::uint64_t n = exited_instructions_ + count_;
    for (unsigned i = 0; i < config_.max_threads; ++i)
        if (threads_[i].live) n += threads_[i].instructions;
    return n;
}

// ---- Threads -------------------------------------------------------------------------------------------------

void ToolRuntime::thread_created(unsigned tid) { context(tid); }

// The thread that ran stops: its PMU keeps its state, with the logical processor idle until the thread runs again.
void ToolRuntime::switch_out() {
    if (rep_info_) finish_rep();
    if (current_ == 0) return;
    ThreadContext& t = threads_[current_];
    settle();
    t.instructions += count_;
    total_base_ += count_;
    count_ = 0;
    // A context switch serialises the processor: what the thread executed retires, and its events reach the PMU
    // that was counting them, before another thread's PMU is attached.
    t.switched_out = emu_->serialize(t.lp);
    if (config_.cpu_wide) return;
    emu_->pmu().set_thread_active(t.lp, false, t.switched_out);
    for (unsigned k = 0; k < num_observers(); ++k) t.observers[k]->set_thread_active(t.lp, false, t.switched_out);
    // An interrupt still on its way when the thread stops has nowhere to return to in it (the sampler counts it
    // lost); what arrived before is taken while this thread's PMU is still attached.
    if (sampler_) sampler_->drain(*emu_, t.lp);
    else if (t.pmi_signal != 0) deliver_pmis();
}

void ToolRuntime::program_observer(Pmu& pmu, unsigned index, int lp, Cycle now) {
    pmu = *blank_pmu_;
    pmu.close_until(now);
    for (unsigned l = 0; l < 2; ++l) {
        if (lp >= 0 && l != static_cast<unsigned>(lp)) continue;
        for (unsigned i = 0; i < program_->num_writes[l]; ++i) {
            const ProgramWrite& w = program_->writes[l][i];
            if (w.pmu == index && pmu.write_msr(l, w.msr, w.value, now) != MsrResult::Ok)
                nb_host_panic("the emulator refused a wrmsr of the event program (#GP)");
        }
    }
}

void ToolRuntime::attach_observers(Pmu* const* observers) { emu_->attach_observers(observers, num_observers()); }

// A thread's first PMU: as after reset (or with netburst-run's program), counting from now.
void ToolRuntime::start_fresh(ThreadContext& t) {
    if (!t.pmu) t.pmu = make_object<Pmu>(&t.pmu_memory);
    Pmu& pmu = *t.pmu;
    pmu = *fresh_pmu_;
    const Cycle now = emu_->now();
    pmu.close_until(now);  // the cycles before this thread existed pass with every counter off
    if (!program_) return;
    for (unsigned i = 0; i < program_->num_writes[t.lp]; ++i) {
        const ProgramWrite& w = program_->writes[t.lp][i];
        if (w.pmu == 0 && pmu.write_msr(t.lp, w.msr, w.value, now) != MsrResult::Ok)
            nb_host_panic("the emulator refused a wrmsr of the event program (#GP)");
    }
    for (unsigned k = 0; k < num_observers(); ++k) {
        if (!t.observers[k]) t.observers[k] = make_object<Pmu>(&t.observer_memory[k]);
        program_observer(*t.observers[k], k + 1, t.lp, now);
    }
}

void ToolRuntime::release_pmu(ThreadContext& t) {
    for (unsigned k = 0; k < Emulator::kMaxObservers; ++k) {
        if (!t.observers[k]) continue;
        t.observers[k]->~Pmu();
        nb_host_free(t.observer_memory[k]);
        t.observers[k] = nullptr;
        t.observer_memory[k] = nullptr;
    }
    if (!t.pmu) return;
    t.pmu->~Pmu();
    nb_host_free(t.pmu_memory);
    t.pmu = nullptr;
    t.pmu_memory = nullptr;
}

void ToolRuntime::install(unsigned tid) {
    ThreadContext& t = context(tid);
    if (!t.ran) {
        t.ran = true;
        ++threads_ran_;
    }
    current_ = tid;
    lp_ = t.lp;
    count_ = 0;
    if (config_.cpu_wide) return;
    if (!t.pmu) start_fresh(t);
    emu_->attach_pmu(t.pmu);
    attach_observers(t.observers);
    t.pmu->set_thread_active(t.lp, true, emu_->now());
    for (unsigned k = 0; k < num_observers(); ++k) t.observers[k]->set_thread_active(t.lp, true, emu_->now());
    if (sampler_) {
        if (!t.stack && sampler_->keeps_stacks()) t.stack = make_object<ShadowStack>();
        sampler_->switch_to(exact_pmu(t), nb_host_gettid(), t.stack);
    }
}

void ToolRuntime::switch_thread(unsigned tid) {
    if (tid == current_) return;
    ++thread_switches_;
    switch_out();
    install(tid);
}

void ToolRuntime::thread_exited(unsigned tid) {
    if (tid >= config_.max_threads || !threads_[tid].live) return;
    switch_thread(tid);
    if (rep_info_) finish_rep();
    ThreadContext& t = threads_[tid];
    settle();
    exited_instructions_ += t.instructions + count_;
    total_base_ += count_;
    count_ = 0;
    if (program_ && !config_.cpu_wide)
        read_all_events(emu_->pmu(), t.observers, emu_->serialize(t.lp), t.lp, &exited_);
    if (sampler_) {
        sampler_->drain(*emu_, t.lp);
        sampler_->switch_to(nullptr, 0, nullptr);
        if (t.stack) sampler_->close_frames(*t.stack);
    }
    if (t.stack) t.stack->clear();
    if (!config_.cpu_wide) {
        emu_->attach_pmu(nullptr);
        emu_->attach_observers(nullptr, 0);
        release_pmu(t);
    }
    t.live = false;
    if (t.pmi_signal != 0 && --pmi_threads_ == 0) nb_host_short_batches(0);
    t.pmi_signal = 0;
    t.pmis.clear();
    t.pebs_notes.clear();
    current_ = 0;
}

void ToolRuntime::fork_child(unsigned tid) {
    // The child is a new process with one thread: it counts from zero on a fresh PMU, while the core model
    // (caches, TLBs, predictors) carries on from the parent's state, as the machine's would.
    rep_info_ = nullptr;
    if (sampler_) sampler_->forget();
    emu_->attach_pmu(nullptr);
    if (!config_.cpu_wide) emu_->attach_observers(nullptr, 0);
    for (unsigned i = 0; i < config_.max_threads; ++i) {
        release_pmu(threads_[i]);
        threads_[i].live = false;
        threads_[i].pmi_signal = 0;  // the child's fresh PMUs raise nothing until it programs them
        threads_[i].pmis.clear();
        threads_[i].pebs_notes.clear();
        // The child's one thread goes on from the forking thread's calls, which belong to the child's image from
        // now on (their costs before the fork are the parent's).
        if (ShadowStack* stack = threads_[i].stack) {
            if (i != tid) stack->clear();
            else stack->restart_frames();
            stack->forget_overflow();
        }
    }
    exited_ = EventSums{};
    exited_instructions_ = 0;
    threads_ran_ = 0;
    pmi_threads_ = 0;
    nb_host_short_batches(0);
    missing_ = MissingInstructions{};
    forked_syscalls_ += syscalls_;
    forked_interrupts_ += timer_interrupts_;
    syscalls_ = 0;
    timer_interrupts_ = 0;
    total_base_ += count_;
    count_ = 0;
    current_ = 0;
    if (config_.cpu_wide) {
        Pmu& pmu = emu_->pmu();
        pmu = *fresh_pmu_;
        const Cycle now = emu_->now();
        pmu.close_until(now);
        pmu.set_thread_active(0, true, now);
        if (config_.hyper_threading) pmu.set_thread_active(1, true, now);
        for (unsigned k = 0; k < num_observers(); ++k) {
            program_observer(*observers_[k], k + 1, -1, now);
            observers_[k]->set_thread_active(0, true, now);
            if (config_.hyper_threading) observers_[k]->set_thread_active(1, true, now);
        }
        emu_->pmu_reprogrammed();  // the tier follows the program the child starts with
    }
    install(tid);
    record_used_ = 0;  // the parent writes what it recorded; the child's stream starts here
    codec_ = trace::CodecState{};
}

// ---- The MSR channel -----------------------------------------------------------------------------------------

int ToolRuntime::wrmsr(std::uint32_t msr, std::uint64_t value) {
    // A program that programs the PMU itself (PAPI on the emulator) shares it with netburst-run's events: once it
    // writes one of their registers, their counters no longer count them, and the report must not say they do.
    // Only PMU 0 is the program's: the observers keep their events whatever it writes.
    if (program_ && !program_taken_) {
        for (unsigned i = 0; i < program_->num_writes[lp_]; ++i)
            if (program_->writes[lp_][i].pmu == 0 && program_->writes[lp_][i].msr == msr) program_taken_ = true;
        for (unsigned i = 0; i < program_->num_events; ++i) {
            const ProgramEvent& e = program_->events[i];
            if (e.pmu == 0 && e.lp == lp_ && kCounters[e.counter].counter_msr == msr) program_taken_ = true;
        }
    }
    settle();
    const int result = result_code(emu_->write_msr(lp_, msr, value));
    open_window_if_wanted();
    counter_accessed(msr);
    return result;
}
int ToolRuntime::rdmsr(std::uint32_t msr, std::uint64_t* value) {
    settle();
    const int result = result_code(emu_->read_msr(lp_, msr, value));
    counter_accessed(msr);
    return result;
}
int ToolRuntime::rdpmc(std::uint32_t ecx, std::uint64_t* value) {
    settle();
    const int result = result_code(emu_->read_pmc(lp_, ecx, value));
    if ((ecx & 0x1Fu) < kNumCounters) counter_accessed(kCounters[ecx & 0x1Fu].counter_msr);
    return result;
}

int ToolRuntime::counter_status(std::uint32_t counter) {
    if (counter >= kNumCounters) return NB_GP_FAULT;
    const Cycle now = emu_->serialize(lp_);  // like the MSR accesses: everything executed so far is counted
    return unsupported(emu_->pmu(), now, lp_, counter) ? NB_UNSUPPORTED : NB_OK;
}

int ToolRuntime::counter_interval(std::uint32_t counter, std::uint64_t* half_width) {
    if (counter >= kNumCounters) return NB_GP_FAULT;
    settle();
    emu_->serialize(lp_);  // like the MSR accesses: everything executed so far is in the estimate
    const Pmu& pmu = emu_->pmu();
    const std::uint64_t half = pmu.counter_half_width(counter);
    *half_width = !pmu.counter_estimated(counter) ? 0 : half == SampledCounters::kUnbounded ? NB_INTERVAL_UNBOUNDED
                                                                                           : half;
    return NB_OK;
}

void ToolRuntime::query(nb_emulator_info* info) {
    // The parameters the emulator's core was reset with (Emulator::reset), not a second description of them.
    describe_machine(emu_->config().machine, info);
    info->logical_processor = lp_;
    info->per_thread = config_.cpu_wide ? 0 : 1;
    info->kernel_model = config_.kernel_model ? 1 : 0;
    std::uint64_t misc = 0;
    emu_->read_msr(lp_, kMsrMiscEnable, &misc);
    info->misc_enable = misc;
}

CpuidRegs ToolRuntime::cpuid(std::uint32_t leaf, std::uint32_t subleaf) const {
    return guest_cpuid(machine_, lp_, leaf, subleaf);
}

namespace {
void copy_name(const char* text, char* out, std::size_t capacity) {
    std::size_t n = 0;
    for (; text && text[n] && n + 1 < capacity; ++n) out[n] = text[n];
    out[n] = 0;
}
}  // namespace

bool ToolRuntime::note_missing_instruction(std::uint64_t pc, const char* extension) {
    const bool first = missing_.count == 0;
    if (first) {
        missing_.first_pc = pc;
        copy_name(extension, missing_.first_extension, sizeof missing_.first_extension);
    }
    ++missing_.count;
    return first;
}

void ToolRuntime::name_first_missing(const char* symbol) {
    copy_name(symbol, missing_.first_symbol, sizeof missing_.first_symbol);
}

// A counter whose ESCR counts at CPL 0 sees only the synthetic kernel path; without it there is nothing to count
// and the value would be a silent zero, so it is unsupported instead.
bool ToolRuntime::counts_kernel(Pmu& pmu, Cycle now, unsigned lp, unsigned counter) {
    std::uint64_t cccr = 0, escr = 0;
    if (pmu.read_msr(lp, kCounters[counter].cccr_msr, &cccr, now) != MsrResult::Ok) return false;
    const CccrFields c = decode_cccr(cccr);
    if (!c.enable) return false;
    const EscrId id = escr_for_cccr_select(counter, c.escr_select, config_.model);
    if (id == EscrId::None) return false;
    if (pmu.read_msr(lp, kEscrs[escr_index(id)].msr, &escr, now) != MsrResult::Ok) return false;
    const EscrFields e = decode_escr(escr);
    return e.t0_os || e.t1_os;
}

bool ToolRuntime::unsupported(Pmu& pmu, Cycle now, unsigned lp, unsigned counter) {
    if (pmu.counter_unsupported(counter)) return true;
    return !config_.kernel_model && counts_kernel(pmu, now, lp, counter);
}

// ---- Results -------------------------------------------------------------------------------------------------

void ToolRuntime::read_events(Pmu& pmu, unsigned index, Cycle now, int lp, EventSums* sums) {
    pmu.close_until(now);
    for (unsigned i = 0; i < program_->num_events; ++i) {
        const ProgramEvent& e = program_->events[i];
        if (e.pmu != index || (lp >= 0 && e.lp != lp)) continue;
        std::uint64_t v = 0;
        pmu.read_pmc(e.lp, e.counter, &v, now);
        sums->values[i] += v;
        if (pmu.counter_estimated(e.counter)) {
            sums->estimated[i] = true;
            const std::uint64_t half = pmu.counter_half_width(e.counter);
            if (half == SampledCounters::kUnbounded) sums->unbounded[i] = true;
            else sums->half2[i] += static_cast<double>(half) * static_cast<double>(half);
        }
        bool bad = unsupported(pmu, now, e.lp, e.counter);
        for (unsigned c = 0; c < kNumCounters; ++c)
            if ((e.check_mask & counter_bit(c)) && unsupported(pmu, now, e.lp, c)) bad = true;
        if (bad) sums->unsupported[i] = true;
    }
}

void ToolRuntime::read_all_events(Pmu& pmu, Pmu* const* observers, Cycle now, int lp, EventSums* sums) {
    read_events(pmu, 0, now, lp, sums);
    for (unsigned k = 0; k < num_observers(); ++k)
        if (observers[k]) read_events(*observers[k], k + 1, now, lp, sums);
}

void ToolRuntime::finish() {
    if (rep_info_) finish_rep();
    if (finished_) return;
    finished_ = true;
    settle();
    emu_->finish();
    flush_recording();
}

std::size_t ToolRuntime::results(char* buffer, std::size_t capacity, bool final_run, std::uint64_t pid) {
    if (rep_info_) finish_rep();
    flush_recording();
    ProcessResults r;
    r.pid = pid;
    r.final_run = final_run;
    r.threads = threads_ran_;
    r.instructions = instructions();
    r.syscalls = syscalls_;
    r.timer_interrupts = timer_interrupts_;
    r.pmu_taken = program_taken_;
    r.missing = missing_;
    if (program_) {
        settle();
        EventSums sums = exited_;
        if (config_.cpu_wide) {
            Cycle now = emu_->serialize(0);
            if (config_.hyper_threading) now = emu_->serialize(1);
            read_all_events(emu_->pmu(), observers_, now, -1, &sums);
        } else {
            for (unsigned tid = 0; tid < config_.max_threads; ++tid) {
                ThreadContext& t = threads_[tid];
                if (!t.live || !t.pmu) continue;
                const Cycle now = tid == current_ ? emu_->serialize(t.lp) : t.switched_out;
                read_all_events(*t.pmu, t.observers, now, t.lp, &sums);
            }
        }
        r.num_events = program_->num_events;
        for (unsigned i = 0; i < r.num_events; ++i) {
            EventResult& e = r.events[i];
            e = EventResult{program_->events[i].index, sums.values[i], sums.unsupported[i]};
            e.estimated = sums.estimated[i];
            // Rounded up: the interval must not come out narrower than the threads' together.
            e.half_width = sums.unbounded[i] ? kUnboundedHalfWidth
                                             : static_cast<std::uint64_t>(square_root(sums.half2[i]) + 0.999);
        }
    }
    return format_results(r, buffer, capacity);
}

}  // namespace netburst::emu::vg
