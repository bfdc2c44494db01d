#include "backend/emulator_backend.h"

#include <csignal>
#include <cstddef>

#include "component/glue_api.h"
#include "emulator/protocol/netburst_client.h"

namespace netburst::component {

namespace {

IoStatus status_of(int result) {
    switch (result) {
    case NB_OK: return IoStatus::Ok;
    case NB_GP_FAULT: return IoStatus::Fault;
    case NB_UNSUPPORTED: return IoStatus::Unsupported;
    default: return IoStatus::Unavailable;  // NB_NOT_EMULATED; NB_NO_PMI: nothing queued
    }
}

}  // namespace

EmulatorQuery query_emulator() {
    nb_emulator_info info{};
    EmulatorQuery q;
    if (nb_query(&info) != NB_OK) return q;
    q.emulated = true;
    q.protocol_version = info.protocol_version;
    q.machine.model = info.model;
    q.machine.hyper_threading = info.hyper_threading != 0;
    q.machine.has_l3 = info.has_l3 != 0;
    q.logical_processor = info.logical_processor;
    q.per_thread = info.per_thread != 0;
    q.kernel_model = info.kernel_model != 0;
    q.misc_enable = info.misc_enable;
    q.stepping = info.stepping;
    q.memory.l1d = CacheGeometry{info.l1d_size, info.l1d_ways, info.l1d_line};
    q.memory.l2 = CacheGeometry{info.l2_size, info.l2_ways, info.l2_sector};
    q.memory.l3 = CacheGeometry{info.l3_size, info.l3_ways, info.l3_sector};
    q.memory.trace_cache_uops = info.trace_cache_uops;
    q.memory.trace_cache_ways = info.trace_cache_ways;
    q.memory.itlb_entries = info.itlb_entries;
    q.memory.itlb_ways = info.itlb_ways;
    q.memory.dtlb_entries = info.dtlb_entries;
    return q;
}

IoStatus EmulatorBackend::write_msr(std::uint32_t msr, std::uint64_t value) { return status_of(nb_wrmsr(msr, value)); }

IoStatus EmulatorBackend::read_msr(std::uint32_t msr, std::uint64_t* value) { return status_of(nb_rdmsr(msr, value)); }

// The set's writes go over as they are: the client header's list entry has their layout.
static_assert(sizeof(nb_msr_write) == sizeof(nb_wrmsr_entry) &&
                  offsetof(nb_msr_write, msr) == offsetof(nb_wrmsr_entry, msr) &&
                  offsetof(nb_msr_write, value) == offsetof(nb_wrmsr_entry, value),
              "struct nb_msr_write is laid out as struct nb_wrmsr_entry");
static_assert(NB_MAX_WRITES <= NB_WRMSR_LIST_MAX, "an event set's writes fit in one list");
static_assert(NB_NUM_PMU_COUNTERS == kNumCounters, "the client header's counters are the table's");

IoStatus EmulatorBackend::write_msrs(const nb_msr_write* writes, unsigned count, unsigned* done) {
    if (count > NB_WRMSR_LIST_MAX) return Backend::write_msrs(writes, count, done);
    std::uint32_t made = 0;
    // The list crosses to the tool as an address, which it reads as struct nb_wrmsr_entry.
    const int result = nb_wrmsr_list(static_cast<const void*>(writes), count, &made);
    *done = made;
    return status_of(result);
}

IoStatus EmulatorBackend::read_counters(CounterMask counters, std::uint64_t* cccr, std::uint64_t* raw) {
    return status_of(nb_read_counters(counters, cccr, raw));
}

IoStatus EmulatorBackend::read_counter(unsigned counter, std::uint64_t* value) {
    return status_of(nb_rdpmc(counter, value));  // ECX bit 31 clear: the full 40 bits
}

IoStatus EmulatorBackend::counter_status(unsigned counter) { return status_of(nb_counter_status(counter)); }

IoStatus EmulatorBackend::counter_interval(unsigned counter, std::uint64_t* half_width) {
    static_assert(NB_INTERVAL_UNBOUNDED == kIntervalUnbounded, "one value for an unbounded estimate");
    return status_of(nb_counter_interval(counter, half_width));
}

// SIGRTMIN + 2, as PAPI's perf_event component: neither PAPI's interval timer (SIGPROF) nor a signal a program is
// likely to use; a real-time signal is queued, not merged, when several PMIs are sent before the first is delivered.
int EmulatorBackend::interrupt_signal() const { return SIGRTMIN + 2; }

IoStatus EmulatorBackend::deliver_interrupts(bool on) {
    return status_of(nb_pmi_signal(on ? interrupt_signal() : 0));
}

IoStatus EmulatorBackend::take_interrupt(Interrupt* out) {
    nb_pmi pmi{};
    if (const int r = nb_take_pmi(&pmi); r != NB_OK) return status_of(r);
    *out = Interrupt{pmi.eip, pmi.overflowed, pmi.pebs != 0};
    return IoStatus::Ok;
}

IoStatus EmulatorBackend::take_pebs_record(PebsNote* out) {
    nb_pebs_note note{};
    if (const int r = nb_take_pebs(&note); r != NB_OK) return status_of(r);
    *out = PebsNote{note.record, note.valid, note.data_address, note.rewound};
    return IoStatus::Ok;
}

// The emulated PMU writes PEBS records into the program's memory and the tool sends its buffer interrupts as
// signals (netburst_client.h, protocol 4).
bool EmulatorBackend::pebs_possible(std::string* why) const {
    why->clear();
    return true;
}

unsigned EmulatorBackend::logical_processor() {
    // Guest threads keep their logical processor for their lifetime (netburst-run places thread n on n - 1 mod 2),
    // but asking is cheap and keeps this right if the emulator ever migrates threads.
    const EmulatorQuery q = query_emulator();
    return q.emulated ? q.logical_processor : 0;
}

}  // namespace netburst::component
