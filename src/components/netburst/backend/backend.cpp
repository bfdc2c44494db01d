// The defaults of the shared-hardware calls: a PMU of one's own (the emulator's per-thread PMU) has nothing to
// coordinate, and reads counters one at a time.
#include "backend/backend.h"

#include "component/glue_api.h"

namespace netburst::component {

IoStatus Backend::counter_interval(unsigned, std::uint64_t* half_width) {
    *half_width = 0;
    return IoStatus::Ok;
}

IoStatus Backend::write_msrs(const nb_msr_write* writes, unsigned count, unsigned* done) {
    for (*done = 0; *done < count; ++*done) {
        const IoStatus s = write_msr(writes[*done].msr, writes[*done].value);
        if (s != IoStatus::Ok) return s;
    }
    return IoStatus::Ok;
}

IoStatus Backend::read_counters(CounterMask counters, std::uint64_t* cccr, std::uint64_t* raw) {
    // Only the set bits: the counters count the instructions of this loop until each is read.
    for (CounterMask left = counters; left != 0; left &= left - 1) {
        const unsigned c = static_cast<unsigned>(__builtin_ctz(left));
        IoStatus s = read_msr(kCounters[c].cccr_msr, &cccr[c]);
        if (s == IoStatus::Ok) s = read_counter(c, &raw[c]);
        if (s != IoStatus::Ok) return s;
    }
    return IoStatus::Ok;
}

PmuOccupancy Backend::occupancy(unsigned) { return PmuOccupancy(); }

IoStatus Backend::claim(const PmuClaim&, std::string*) { return IoStatus::Ok; }

void Backend::release(const PmuClaim&) {}

int Backend::select_cpu(int) { return -1; }

IoStatus Backend::attach_cpu(unsigned, unsigned*, std::string* why) {
    *why = "this backend gives every thread its own PMU; event sets cannot be attached to a CPU";
    return IoStatus::Unsupported;
}

}  // namespace netburst::component
