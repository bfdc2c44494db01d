// Event-based sampling for `netburst-run record`: the part of an operating system's PMU driver that a sampling run
// needs, acting on the emulated PMU the way an interrupt handler acts on a real one. A recording samples one or more
// events (SampleSpec::events), each on its own counter of PMU 0; every sample names its event by its index there.
//
// - IEBS: each sampling counter has OVF_PMI_T0 set (netburst-run's program). When the PMU model raises and resolves
//   the interrupt (emulator/pmu/pmi.h: taken pmi_skid_cycles after the event that follows the overflow, returning
//   to the first instruction not yet retired then), the sample is that return address, for every sampling counter
//   the interrupt's overflow mask names (two counters that overflow while one interrupt waits share it, as on the
//   hardware, whose interrupt line has one PMI pending at a time). The handler then clears that counter's CCCR OVF
//   flag and reloads the counter so that the next overflow comes PERIOD events after this one,
//   counting the events that arrived while the interrupt was on its way (as Linux's x86 PMI handler does in
//   x86_perf_event_set_period: what was left of the period, or a whole period when more than one has passed).
// - PEBS (one event at most): the counter is IQ_COUNTER4 with IA32_PEBS_ENABLE's ENABLE_PEBS set; the PMU model
//   writes a record into the DS buffer for the first counted uop after each overflow and reloads the counter from the
//   DS area's counter reset. The DS save area lives in memory private to the sampler (ds_memory()), so the program's
//   memory is never written. Each record's instruction pointer is the sample, with the data address of the sampled
//   load or store (which a real record does not hold: it holds the registers, from which software decodes the
//   address).
//
// With -g (SampleSpec::callchain) each sample also carries the thread's call chain: its shadow call stack
// (shadow_stack.h) as it stood at the start of the instruction the sample names, since after() takes the samples
// before it lets the instruction's own call or return change the stack.
//
// With --callgrind (SampleSpec::call_edges) the image's call edges (call_edges.h) are kept from the same stacks:
// each event's exact count settled after each instruction and each sample taken are added to the running thread's
// stack, whose frames measure their calls against them. A frame's inclusive exact count is therefore the sum of the
// exact counts given to the instructions that ran while it was open, the same attribution as the `count` lines.
//
// Both are drained after every instruction (after()), so the handler acts at the instruction boundary the
// interrupt returns to, one instruction later than on hardware: the emulator learns where an interrupt returns
// only when that instruction retires. Exact counts: a second PMU (an observer of the same core) counts the same
// events without sampling, one counter each; after each instruction the increase of each counter is added to that
// instruction's address under its event.
//
// Freestanding: the Valgrind tool runs it; the host's unit tests drive it with an Emulator of their own.
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/emulator.h"
#include "emulator/pmu/memory_window.h"
#include "emulator/pmu/pebs.h"
#include "emulator/protocol/program_file.h"
#include "emulator/protocol/sample_file.h"
#include "emulator/sampling/call_edges.h"
#include "emulator/sampling/pc_counts.h"
#include "emulator/sampling/shadow_stack.h"

namespace netburst::emu::vg {

// Where an instruction is in the source, from the debug information (any field may be null or 0 when unknown).
struct SourcePlace {
    const char* function = nullptr;
    const char* file = nullptr;
    const char* dir = nullptr;
    unsigned line = 0;
};

struct SamplerHost {
    SampleWriter::Sink write = nullptr;            // the samples file
    PcCounts::Alloc alloc = nullptr;
    PcCounts::Free release = nullptr;
    bool (*describe)(std::uint64_t ip, SourcePlace* out) = nullptr;  // at the end of the process image
};

class Sampler {
public:
    Sampler() = default;
    Sampler(const Sampler&) = delete;  // ds_window_ refers to this object's own ds_
    Sampler& operator=(const Sampler&) = delete;
    // The DS buffer holds this many PEBS records; it is drained after every instruction, which writes at most one.
    static constexpr unsigned kPebsRecords = 16;

    // Returns nullptr, or what is wrong with the spec.
    const char* init(const SampleSpec& spec, bool long_mode, const SamplerHost& host);
    const SampleSpec& spec() const { return spec_; }
    // Whether the threads need their shadow call stacks (switch_to's `stack`).
    bool keeps_stacks() const { return spec_.callchain || spec_.call_edges; }
    // The private memory behind the DS save area at kSampleDsArea (give it to the sampling PMU before its first
    // PEBS record; the area is set up by init()).
    GuestMemory ds_memory();

    // A process image starts (or a forked child continues as a new process): its header lines. The synthetic kernel
    // paths' code lies at kernel_low <= IP < kernel_high (both 0: no kernel model).
    void begin_process(std::uint64_t pid, const char* exe, std::uint64_t kernel_low, std::uint64_t kernel_high);
    // The guest thread now running has OS thread id `tid`; `exact` is its exact-count PMU (nullptr: none) and
    // `stack` its shadow call stack (used only with spec().callchain or call_edges; nullptr: none).
    void switch_to(const Pmu* exact, std::uint64_t tid, ShadowStack* stack) {
        exact_ = exact;
        for (unsigned i = 0; i < spec_.num_events; ++i)
            last_exact_[i] = exact ? exact->counter_value(spec_.events[i].exact_counter) : 0;
        tid_ = tid;
        stack_ = keeps_stacks() ? stack : nullptr;
        if (stack_) stack_->set_events(spec_.num_events);
    }
    // After each instruction the emulator ran for the current thread, on logical processor `lp`. Without -g and
    // --callgrind the only cost of the call stacks is the test of stack_.
    __attribute__((always_inline)) void after(Emulator& emu, unsigned lp, const Instruction& insn) {
        last_pc_ = insn.pc;
        settle();
        if (__builtin_expect(emu.pmu().has_records(), 0)) drain(emu, lp);
        if (stack_) stack_->update(insn, edge_sink_);
    }
    // A thread ends, or its image does (before finish()), with calls still open in `stack`: with call_edges, they
    // add what they cost so far to the image's edges.
    void close_frames(ShadowStack& stack) {
        if (edge_sink_) stack.report_open(edge_sink_);
    }
    // Takes every interrupt and PEBS record the attached PMU has (also when the thread stops running).
    void drain(Emulator& emu, unsigned lp);
    // The end of the process image: each instruction's exact count, the call edges (with call_edges; close_frames()
    // each live thread's stack first) and the source place of every instruction that has a count or a sample or is
    // an edge's end, since the previous call, the image's last cycle (`now`) and the calls its threads' shadow
    // stacks could not hold (`chain_overflow`). The host then writes its map lines and `end`.
    void finish(Cycle now, std::uint64_t chain_overflow = 0);
    // In a forked child: the parent's counts are the parent's (its unwritten lines were flushed before the fork).
    void forget();
    SampleWriter& writer() { return writer_; }

    std::uint64_t samples() const { return samples_; }  // all events' together
    std::uint64_t lost() const { return lost_; }

private:
    // Each exact counter's increase since the last look goes to the last instruction run (events the machine
    // reports when it serialises, at a thread switch or an interrupt, belong to the instructions before it).
    void settle() {
        if (!exact_) return;
        for (unsigned i = 0; i < spec_.num_events; ++i) {
            const std::uint64_t v = exact_->counter_value(spec_.events[i].exact_counter);
            if (v == last_exact_[i]) continue;
            const std::uint64_t n = (v - last_exact_[i]) & kCounterValueMask;
            counts_.add(last_pc_, i, n);
            if (stack_) stack_->add_exact(n, i);
            last_exact_[i] = v;
        }
    }
    void take_pmi(Emulator& emu, unsigned lp, const PmiRecord& pmi);
    void take_pebs(const PebsRecord& record);
    // A sample of event `event` at `ip` was written: its place in the source is wanted, and the stack counts it.
    void note_sample(unsigned event, std::uint64_t ip);
    void rearm_iebs(Emulator& emu, unsigned lp, const SampledCounter& event);
    // With -g: the `chain` line after a sample's line.
    void write_chain();

    SampleSpec spec_{};
    bool long_mode_ = true;
    SamplerHost host_{};
    SampleWriter writer_;
    PcCounts counts_;
    CallEdges edges_;
    CallEdges* edge_sink_ = nullptr;  // &edges_ with call_edges
    const Pmu* exact_ = nullptr;
    std::uint64_t last_exact_[kMaxSampledEvents] = {};
    std::uint64_t last_pc_ = 0;
    std::uint64_t tid_ = 0;
    ShadowStack* stack_ = nullptr;  // the current thread's, with -g
    std::uint64_t samples_ = 0;
    std::uint64_t lost_ = 0;
    // The DS management area (its first 0x100 bytes) and the PEBS buffer after it.
    static constexpr std::uint64_t kDsBufferOffset = 0x100;
    static constexpr std::size_t kDsBytes = kDsBufferOffset + kPebsRecords * kPebsRecordSize64;
    unsigned char ds_[kDsBytes] = {};
    // [kSampleDsArea, + kDsBytes) maps onto ds_; anything else is refused, so no PEBS write reaches the program.
    MemoryWindow ds_window_{kSampleDsArea, ds_, kDsBytes};
};

}  // namespace netburst::emu::vg
