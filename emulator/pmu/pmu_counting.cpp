// Counting: increments with the 40-bit wrap, overflow (OVF, FORCE_OVF, the PMI on the next event, cascade starts,
// PEBS), and the per-cycle evaluation of counters that compare, edge-detect or filter by thread activity.
#include "emulator/pmu/pebs.h"
#include "emulator/pmu/pmu.h"

namespace netburst::emu {

namespace {

constexpr Cycle kNoIdleLimit = ~Cycle{0};

bool thread_filter_passes(ActiveThread mode, unsigned active) {
    switch (mode) {
    case ActiveThread::None: return active == 0;
    case ActiveThread::Single: return active == 1;
    case ActiveThread::Both: return active == 2;
    case ActiveThread::Any: return active >= 1;
    }
    return false;
}

// The memory operand of the sampled uop: a load uop's is the instruction's first load operand, a store uop's its
// first store operand. Other uops (branches, arithmetic) have none.
bool sampled_data_address(const Outcome& o, UopKind kind, std::uint64_t* address) {
    if (!o.instruction || (kind != UopKind::Load && kind != UopKind::Store)) return false;
    const Instruction& insn = *o.instruction;
    for (unsigned k = 0; k < insn.num_mem && k < kMaxMemOperands; ++k)
        if (insn.mem[k].is_store == (kind == UopKind::Store)) {
            *address = insn.mem[k].address;
            return true;
        }
    return false;
}

}  // namespace

// `cycles` consecutive increments starting at `first`, each adding `per_cycle`.
void Pmu::count_units(unsigned n, Cycle first, Cycle cycles, unsigned per_cycle) {
    CounterState& c = counters_[n];
    const std::uint64_t total = cycles * per_cycle;
    if (!c.slow && c.value + total <= kCounterValueMask) {
        c.value += total;
        return;
    }
    count_slow(n, first, cycles, per_cycle);
}

void Pmu::count_slow(unsigned n, Cycle first, Cycle cycles, unsigned per_cycle) {
    CounterState& c = counters_[n];
    if (cycles == 0 || per_cycle == 0) return;
    // PEBS: the first uop the counter counts after its overflow is the sampled one (precise), its record replaces
    // the increment and the counter reloads from the DS area.
    if (c.pebs_armed && feeding_ && (feeding_->thread & 1u) == c.pebs_thread) {
        write_pebs(n, first);
        return;
    }
    // SDM 18.15.5.8 / the thesis: the PMI is generated on the next event after the counter overflowed.
    if (c.pmi_pending) raise_counter_pmi(n, first);

    const std::uint64_t total = cycles * per_cycle;
    const std::uint64_t room = kCounterValueMask - c.value;  // units the counter takes before it wraps
    c.value = (c.value + total) & kCounterValueMask;
    Cycle overflow_index = 0;  // the increment (cycle) that overflows
    if (c.force_ovf) {
        overflow_index = 0;    // FORCE_OVF: every increment overflows
    } else if (total > room) {
        overflow_index = room / per_cycle;
    } else {
        refresh_slow(c);
        return;
    }
    on_overflow(n, first + overflow_index);
    // A later increment of the same bulk add is the "next event". One PMI per bulk add: further ones would join it
    // on the logical processor's interrupt line while it waits to be taken.
    if (c.pmi_pending && overflow_index + 1 < cycles) {
        raise_counter_pmi(n, first + overflow_index + 1);
        if (c.force_ovf) on_overflow(n, first + cycles - 1);
    }
    refresh_slow(c);
}

void Pmu::on_overflow(unsigned n, Cycle cycle) {
    CounterState& c = counters_[n];
    const bool already = regs_.ovf(n);
    regs_.set_ovf(n);  // sticky until software clears it
    if (c.pebs) {
        c.pebs_armed = true;
    } else if (c.pmi_t0 || c.pmi_t1) {
        c.pmi_pending = true;
    }
    // Counters cascaded from this one start now (they count from the next record on).
    if (!already && cascade_waiting_on_[n]) request_reprogram(cycle);
    refresh_slow(c);
}

void Pmu::raise_counter_pmi(unsigned n, Cycle cycle) {
    CounterState& c = counters_[n];
    c.pmi_pending = false;
    const std::uint32_t overflowed = overflowed_mask();
    if (c.pmi_t0) pmi_.raise(0, cycle, overflowed, false);
    if (c.pmi_t1) pmi_.raise(1, cycle, overflowed, false);
    refresh_slow(c);
}

std::uint32_t Pmu::overflowed_mask() const {
    std::uint32_t mask = 0;
    for (unsigned n = 0; n < kNumCounters; ++n)
        if (regs_.ovf(n)) mask |= std::uint32_t{1} << n;
    return mask;
}

void Pmu::write_pebs(unsigned n, Cycle cycle) {
    CounterState& c = counters_[n];
    const Outcome& o = *feeding_;
    c.pebs_armed = false;
    const PebsWriteResult r = write_pebs_record(memory_, regs_.ds_area(c.pebs_thread), config_.long_mode, o.pc, o.regs);
    if (r.have_reset) c.value = r.counter_reset & kCounterValueMask;
    if (r.written) {
        PebsRecord record;
        record.cycle = cycle;
        record.thread = c.pebs_thread;
        record.eip = o.pc;
        record.address = r.address;
        record.has_registers = o.regs != nullptr;
        record.has_data_address = sampled_data_address(o, feeding_kind_, &record.data_address);
        pebs_records_.push(record);
        if (r.threshold) pmi_.raise(c.pebs_thread, cycle, overflowed_mask(), true);
    }
    refresh_slow(c);
}

void Pmu::close_until(Cycle cycle) {
    if (cycle <= closed_) return;
    for (std::uint32_t m = per_cycle_; m != 0; m &= m - 1)
        evaluate(static_cast<unsigned>(__builtin_ctz(m)), cycle, kNoIdleLimit);
    closed_ = cycle;
    activity_.fold_until(cycle);
    run_pending_reprogram();
}

// A per-cycle counter stops (disabled, or switched to bulk counting): everything it was given belongs to
// instructions consumed while it counted, so it is evaluated now. Idle cycles count only up to the stop; later
// cycles are evaluated only where they hold occurrences.
void Pmu::flush_per_cycle(unsigned n, Cycle now) {
    const Cycle idle_from = now > closed_ ? now : closed_;
    const Cycle last = buckets_[n].last_content() + 1;
    evaluate(n, last > idle_from ? last : idle_from, idle_from);
}

// Evaluates counter n's cycles from its buckets' next() up to `until`, in runs of identical cycles: between two
// cycles holding occurrences (or an activity change) every cycle has the same total, so one comparison serves
// the whole run.
void Pmu::evaluate(unsigned n, Cycle until, Cycle idle_from) {
    CycleBuckets& b = buckets_[n];
    Cycle cur = b.next();
    while (cur < until) {
        const Cycle change = b.next_change(cur, until);
        const Cycle activity = activity_.next_change(cur, change);
        const Cycle stop = activity < change ? activity : change;
        if (stop > cur) {
            evaluate_run(n, cur, stop - cur, b.level(), activity_.active_count(cur), idle_from);
            b.skip_to(stop);
            cur = stop;
            continue;
        }
        const unsigned count = b.take(cur);
        evaluate_run(n, cur, 1, count, activity_.active_count(cur), idle_from);
        ++cur;
    }
}

void Pmu::evaluate_run(unsigned n, Cycle first, Cycle length, unsigned count, unsigned active, Cycle idle_from) {
    CounterState& c = counters_[n];
    if (count > CycleBuckets::kMaxPerCycle) count = CycleBuckets::kMaxPerCycle;
    if (count == 0 && first + length > idle_from) {
        if (first >= idle_from) return;
        length = idle_from - first;
    }
    const bool pass = thread_filter_passes(c.active_thread, active);
    if (!c.compare) {
        if (pass && count != 0) count_units(n, first, length, count);
        return;
    }
    // Compare: increment by one in each cycle whose total exceeds the threshold (or, with complement, does not);
    // edge: only in a cycle where that result turns true.
    const bool result = c.complement ? count <= c.threshold : count > c.threshold;
    if (!c.edge) {
        if (pass && result) count_units(n, first, length, 1);
    } else if (pass && result && !c.edge_prev) {
        count_units(n, first, 1, 1);
    }
    c.edge_prev = result;
}

}  // namespace netburst::emu
