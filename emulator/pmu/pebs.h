// The DS save area and PEBS records (SDM Vol. 3B 18.15.7 and the DS layout of 17.4.9; doc/emulator-pmu.md, "PEBS",
// has the field tables). This file only knows memory layouts: when a record is due is the
// Pmu's business.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"
#include "emulator/pmu/pmu_types.h"
#include "table/msr_map.h"

namespace netburst::emu {

// Record sizes: ten 4-byte fields without IA-32e mode, eighteen 8-byte fields (R8-R15 added) with it.
constexpr unsigned kPebsRecordSize32 = kDsLayout32.record_bytes();  // table/msr_map.h has both layouts
constexpr unsigned kPebsRecordSize64 = kDsLayout64.record_bytes();

struct PebsWriteResult {
    bool written = false;        // a record went into the buffer
    bool threshold = false;      // the index reached the interrupt threshold: raise a PMI
    bool have_reset = false;     // the DS area was readable: `counter_reset` is valid
    std::uint64_t counter_reset = 0;  // "PEBS counter reset", the value the counter reloads with (40 bits used)
    std::uint64_t address = 0;   // where the record went
};

// Writes one record for the instruction at `eip` into the PEBS buffer described by the DS management area at
// `ds_area`, advances the PEBS index and reads the counter reset value. Nothing is written when the buffer is full
// (index at or past the absolute maximum) or memory is not accessible.
PebsWriteResult write_pebs_record(const GuestMemory& memory, std::uint64_t ds_area, bool long_mode, std::uint64_t eip,
                                  const RegisterSnapshot* regs);

// The PEBS half of a DS buffer management area, as the operating system's driver fills it in (the fields
// write_pebs_record reads), and the bytes a buffer of `records` records needs after the management area.
struct DsAreaSetup {
    std::uint64_t buffer_base = 0;
    std::uint64_t index = 0;
    std::uint64_t absolute_maximum = 0;
    std::uint64_t interrupt_threshold = 0;
    std::uint64_t counter_reset = 0;  // the value the PEBS counter reloads with after each record (40 bits used)
};
unsigned pebs_record_size(bool long_mode);
// Writes `setup` into the DS management area at `ds_area`; false when memory refuses.
bool write_ds_area(const GuestMemory& memory, std::uint64_t ds_area, bool long_mode, const DsAreaSetup& setup);
// Moves the PEBS index back to `index`, as an interrupt handler does once it has copied the records out.
bool set_pebs_index(const GuestMemory& memory, std::uint64_t ds_area, bool long_mode, std::uint64_t index);

}  // namespace netburst::emu
