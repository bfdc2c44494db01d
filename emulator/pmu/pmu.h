// The NetBurst PMU model: the register file software sees (wrmsr/rdmsr/rdpmc) and the counting machinery behind
// it, exactly as Intel SDM Vol. 3B section 18.15 describes it. It decodes ESCRs and CCCRs with the hardware
// table's register layouts (table/registers.h) and event table (table/events.h); it never asks the component
// what an event means, so a wrong ESCR value gives a wrong count.
//
// Freestanding: no allocation, no exceptions, no C library. Construct with new or placement new, then reset().
#pragma once

#include <cstdint>

#include "emulator/model/functional_sink.h"
#include "emulator/model/outcome.h"
#include "emulator/pmu/activity.h"
#include "emulator/pmu/cycle_buckets.h"
#include "emulator/pmu/pmi.h"
#include "emulator/pmu/pmu_types.h"
#include "emulator/pmu/record_ring.h"
#include "emulator/pmu/register_file.h"
#include "emulator/pmu/routing.h"
#include "emulator/pmu/sampled_counters.h"
#include "emulator/pmu/table_facts.h"
#include "emulator/pmu/tagging.h"

namespace netburst::emu {

class Pmu {
public:
    void reset(const PmuConfig& config);

    // Software's view. `thread` is the logical processor executing the instruction; `now` the current cycle.
    MsrResult write_msr(unsigned thread, std::uint32_t msr, std::uint64_t value, Cycle now);
    MsrResult read_msr(unsigned thread, std::uint32_t msr, std::uint64_t* value, Cycle now);
    // RDPMC: ECX bits 4:0 select the counter (0-17), bit 31 asks for the low 32 bits only ("fast" read).
    MsrResult read_pmc(unsigned thread, std::uint32_t ecx, std::uint64_t* value, Cycle now);

    // True while counter n is enabled on an ESCR/mask the core model does not drive (see model/coverage.h), or
    // has counted such an event since software last wrote it: its value then means nothing and the emulator
    // reports it as unsupported.
    bool counter_unsupported(unsigned n) const;
    // IA32_PEBS_ENABLE enables PEBS for either logical processor (ENABLE_PEBS_MY_THR or ENABLE_PEBS_OTH_THR).
    bool pebs_enabled() const { return regs_.pebs_enabled(0) || regs_.pebs_enabled(1); }

    // The core model's feed, in instruction order.
    void consume(const Outcome& outcome);

    // Whether what software programmed needs the core's timing tier (recomputed at every MSR write): an enabled
    // counter selects a timing-dependent (event, mask bit) (model/coverage.h), compares, edge-detects or filters
    // by thread activity (it evaluates every cycle), or overflow machinery that acts at a cycle or on one uop is
    // armed (OVF_PMI, FORCE_OVF, a Cascade bit, PEBS enables, a PMI or PEBS record owed), or replay tagging
    // selects MOB replays. Otherwise every enabled counter counts only functional pairs and plain adds, and the
    // emulator may feed the PMU with absorb() instead of consume().
    bool needs_timing() const { return needs_timing_; }
    // The part of needs_timing() that --timing=sampled cannot estimate: overflow machinery (a PMI or PEBS record
    // is raised at one cycle or on one uop), Cascade, and MOB replay tagging. While it holds, every instruction
    // runs timed and every counter is exact.
    bool needs_exact_timing() const { return needs_exact_timing_; }

    // --timing=sampled (sampled_counters.h; the front end runs the schedule). `total` is the front end's count of
    // program instructions, `aux` the functional tier's exact counts (unit_regression.h). settle: the instructions
    // since the last settle ran in the functional tier, or not;
    // resume: the PMU is attached again after other threads ran; timed: the timing tier starts, or has ended and
    // drained; unit: a measured unit starts, or ends after `instructions`.
    void sampled_settle(std::uint64_t total, bool functional, const SampleAux& aux) {
        sampled_.settle(total, functional, aux);
    }
    void sampled_resume(std::uint64_t total, const SampleAux& aux) { sampled_.resume(total, aux); }
    void sampled_timed(bool begin);
    void sampled_unit(bool begin, std::uint64_t instructions, const SampleAux& aux);
    bool sampled_wants_unit() const { return sampled_.wants_unit(); }
    bool has_estimates() const { return sampled_.any_estimated(); }
    // Whether counter n's value since software last wrote it includes estimated instructions, and the half-width
    // of its 99.7 % confidence interval.
    bool counter_estimated(unsigned n) const { return n < kNumCounters && sampled_.sampled(n); }
    std::uint64_t counter_half_width(unsigned n) const { return n < kNumCounters ? sampled_.half_width(n) : 0; }
    // The functional tier's feed: adds what the core counted (since the last absorb, for the instructions run
    // since then) to the counters that count it, as consume() would have from the same instructions' Outcomes.
    // Counters keep their 40-bit wrap and set their sticky OVF flag. Only valid while !needs_timing().
    void absorb(const FunctionalSink& counts);
    // Logical processor activity for the CCCR active-thread filter: `thread` is active from `cycle` on (or,
    // with active false, halted or finished from `cycle` on).
    void set_thread_active(unsigned thread, bool active, Cycle cycle);
    // Evaluates every cycle before `cycle` (threshold, edge, active-thread filtering, PMI delivery). Called before
    // each MSR access and at the end; consume() closes up to each outcome's frontier on its own.
    void close_until(Cycle cycle);

    void set_guest_memory(const GuestMemory& memory);

    // Records since the last call (oldest first); returns how many were copied, and counts those lost when more
    // arrived than the internal ring holds.
    unsigned take_pmis(PmiRecord* out, unsigned capacity);
    unsigned take_pebs_records(PebsRecord* out, unsigned capacity);
    std::uint64_t lost_records() const;
    // Whether take_pmis or take_pebs_records has anything (cheap enough to ask after every instruction).
    bool has_records() const { return pmi_.ready() != 0 || pebs_records_.size() != 0; }
    // Counter n's value as the feed left it, without closing cycles: exact for a plain counter after each
    // consume(), which is how a sampling front end attributes a counter's increments to instructions.
    std::uint64_t counter_value(unsigned n) const { return counters_[n % kNumCounters].value; }
    // What software reads from counter n: its register, or its estimate under --timing=sampled.
    std::uint64_t software_value(unsigned n) const {
        return sampled_.estimated(n) ? sampled_.value(n, counters_[n].value) : counters_[n].value;
    }

private:
    // All state is fixed-size members (no allocation). How the parts fit: doc/emulator-pmu.md.

    // Plain counters add occurrences in bulk as they arrive; per-cycle counters (compare, or an active-thread
    // filter other than ANY) collect them in CycleBuckets and evaluate each cycle when it closes.
    enum class Mode : std::uint8_t { Off, Plain, PerCycle };

    struct CounterState {
        std::uint64_t value = 0;  // 40 bits
        Mode mode = Mode::Off;
        bool slow = false;         // force_ovf || pmi_pending || pebs_armed: bulk adds take count_slow()
        bool fast = false;         // Mode::Plain && !slow: an occurrence only needs the bus cap and an add
        bool force_ovf = false;
        bool pmi_t0 = false;
        bool pmi_t1 = false;
        bool pmi_pending = false;  // overflowed with OVF_PMI set: the next increment raises the PMI
        bool pebs = false;         // the PEBS counter of its logical processor, counting a PEBS-capable event
        bool pebs_armed = false;   // overflowed in PEBS mode: the next counted uop writes a record
        std::uint8_t pebs_thread = 0;
        bool unsupported = false;  // the current selection includes a pair the core does not model
        bool timing = false;       // the current selection includes a timing-dependent pair
        bool tainted = false;      // counted such a selection since software last wrote the value
        // Per-cycle evaluation (CCCR fields).
        bool compare = false;
        bool complement = false;
        bool edge = false;
        bool edge_prev = false;    // the comparison result of the previous evaluated cycle
        std::uint8_t threshold = 0;
        ActiveThread active_thread = ActiveThread::Any;
    };

    // The plain path's 4-bit bus: for each of the last kCapSlots cycles, what each counter already received in it,
    // so that one cycle never adds more than 15 however many records and outcomes its occurrences arrive in. Exact
    // while a counter's occurrences of one cycle arrive within kCapSlots cycles of each other.
    static constexpr unsigned kCapSlots = 1024;
    struct CapSlot {
        Cycle cycle;
        std::uint8_t sum[kNumCounters];
    };

    void reprogram(Cycle now);
    void route_counter(unsigned n, unsigned escr_select);
    void enter_mode(unsigned n, Mode mode, Cycle now);
    void flush_per_cycle(unsigned n, Cycle now);
    void request_reprogram(Cycle cycle);
    void run_pending_reprogram();
    // close_until() for the common case: nothing is evaluated per cycle and nothing waits.
    void advance(Cycle cycle) {
        if (cycle <= closed_) return;
        if (per_cycle_ == 0 && !reprogram_pending_ && !activity_.has_changes())
            closed_ = cycle;
        else
            close_until(cycle);
    }

    unsigned bus_room(unsigned n, Cycle cycle, unsigned count);
    void deliver_point(unsigned n, Cycle cycle, unsigned count);
    void deliver_point_slow(unsigned n, Cycle cycle, unsigned count);
    void deliver_interval(unsigned n, Cycle begin, Cycle end, unsigned per_cycle);
    void deliver_own(EventId event, unsigned bit, Cycle cycle, unsigned q, unsigned count);
    void deliver_own_any(EventId event, std::uint16_t bits, Cycle cycle, unsigned q);
    template <bool kBackEndTags>
    void feed_retirement(const Outcome& outcome, unsigned q);
    void deliver_retirement(Cycle cycle, unsigned q, std::uint32_t counts);
    void build_retire_routes();
    void feed_tagged_uops(const Outcome& outcome, unsigned q);

    void count_units(unsigned n, Cycle first, Cycle cycles, unsigned per_cycle);
    void count_slow(unsigned n, Cycle first, Cycle cycles, unsigned per_cycle);
    void on_overflow(unsigned n, Cycle cycle);
    void raise_counter_pmi(unsigned n, Cycle cycle);
    void write_pebs(unsigned n, Cycle cycle);
    void refresh_slow(CounterState& c) const {
        c.slow = c.force_ovf || c.pmi_pending || c.pebs_armed;
        c.fast = c.mode == Mode::Plain && !c.slow;
    }
    std::uint32_t overflowed_mask() const;

    void evaluate(unsigned n, Cycle until, Cycle idle_from);

    // pmu_functional.cpp
    void update_needs_timing();
    // --timing=sampled: tells sampled_ which counters are estimated after a change of the registers.
    void refresh_sampled();
    void raw_values(std::uint64_t* out) const;
    void absorb_add(unsigned n, std::uint64_t count);
    void absorb_own(EventId event, unsigned bit, unsigned q, std::uint64_t count);
    void absorb_retirement(const FunctionalSink& counts, unsigned q);
    void evaluate_run(unsigned n, Cycle first, Cycle length, unsigned count, unsigned active, Cycle idle_from);

    PmuConfig config_;
    RegisterFile regs_;
    TableFacts facts_;
    CounterState counters_[kNumCounters];
    CapSlot cap_[kCapSlots];
    CycleBuckets buckets_[kNumCounters];
    RouteTable core_routes_;               // events the core reports (EventRecord, IntervalRecord)
    RouteTable own_routes_;                // events the PMU derives from retiring uops
    std::uint64_t routed_events_ = 0;      // bit per EventId that has a core route
    TagConfig tags_;
    bool escr_in_use_[kNumEscrs] = {};
    std::uint32_t counting_ = 0;           // counters that count (enabled or cascade-started)
    std::uint32_t per_cycle_ = 0;          // counters in Mode::PerCycle
    std::uint32_t cascade_waiting_on_[kNumCounters] = {};  // counters that start when counter n overflows
    // What the feed has to do with uops, decided when the registers change.
    bool want_uops_ = false;               // uops_retired, instr_retired or instr_completed is counted
    bool want_tags_ = false;               // a tagged event is counted and its tagging is configured
    bool want_fe_ = false;
    bool want_exec_ = false;
    bool want_replay_ = false;
    bool watch_pmis_ = false;              // a counter can raise a PMI: remember where instructions retire
    // The counters of uops_retired, instr_retired and instr_completed, for the untagged retirement path. A group of
    // uops retiring in one cycle is summarised as four byte counts in one word (non-bogus uops, bogus uops,
    // non-bogus instructions, bogus instructions, low byte first); per qualifier index, `bytes` keeps the bytes
    // the counter's ESCR selects (0xFF) so that the counter's share is one AND and one multiply-add away.
    struct RetireRoute {
        std::uint32_t bytes[4];
        std::uint8_t counter;
    };
    RetireRoute retire_routes_[kNumCounters];
    unsigned num_retire_routes_ = 0;
    ActivityTimeline activity_;
    PmiUnit pmi_;
    RecordRing<PebsRecord, 256> pebs_records_;
    GuestMemory memory_;
    Cycle closed_ = 0;                     // every cycle before it has been evaluated
    bool reprogram_pending_ = false;       // a cascade started: rebuild routes once the current step is done
    Cycle reprogram_cycle_ = 0;
    // The uop being counted, for PEBS records (set only inside feed_uops).
    const Outcome* feeding_ = nullptr;
    UopKind feeding_kind_ = UopKind::Other;
    bool needs_timing_ = false;
    bool needs_exact_timing_ = false;
    SampledCounters sampled_;
};

}  // namespace netburst::emu
