#include "emulator/pmu/pebs.h"

namespace netburst::emu {

namespace {

// DS buffer management area, PEBS half. The fields are 8 bytes in IA-32e mode (PEBS base at 20H) and 4 bytes
// otherwise (base at 10H). "PEBS counter reset" follows the threshold in both; we read it as 8 bytes in both
// layouts (the counter is 40 bits wide; the 32-bit figure's field width is not verified, see the doc).
struct DsLayout {
    unsigned field;      // bytes per pointer field
    unsigned base;       // offset of PEBS buffer base
    unsigned index;
    unsigned maximum;
    unsigned threshold;
    unsigned reset;
    unsigned record;     // bytes per record
};
constexpr DsLayout kDs64{8, kDsPebsBase, kDsPebsIndex, kDsPebsMaximum, kDsPebsThreshold, kDsPebsCounterReset,
                         kPebsRecordSize64};
constexpr DsLayout kDs32{4, 0x10, 0x14, 0x18, 0x1C, 0x20, kPebsRecordSize32};

bool read_field(const GuestMemory& m, std::uint64_t address, unsigned size, std::uint64_t* out) {
    unsigned char buf[8] = {};
    if (!m.read(m.context, address, buf, size)) return false;
    std::uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) v |= std::uint64_t{buf[i]} << (8 * i);  // little-endian, like the guest
    *out = v;
    return true;
}

void put(unsigned char* record, unsigned offset, unsigned size, std::uint64_t value) {
    for (unsigned i = 0; i < size; ++i) record[offset + i] = static_cast<unsigned char>(value >> (8 * i));
}

// Figure 17-7 / 17-10 order: flags, IP, then the general registers in encoding order for the 32-bit record
// (EAX, EBX, ECX, EDX, ESI, EDI, EBP, ESP) and the same followed by R8-R15 for the 64-bit one.
unsigned build_record(unsigned char* record, bool long_mode, std::uint64_t eip, const RegisterSnapshot* regs) {
    const unsigned size = long_mode ? 8 : 4;
    RegisterSnapshot zero;
    const RegisterSnapshot& r = regs ? *regs : zero;
    const std::uint64_t fields[] = {r.rflags, eip,   r.rax, r.rbx, r.rcx, r.rdx, r.rsi, r.rdi, r.rbp,
                                    r.rsp,    r.r8,  r.r9,  r.r10, r.r11, r.r12, r.r13, r.r14, r.r15};
    const unsigned count = long_mode ? 18 : 10;
    for (unsigned i = 0; i < count; ++i) put(record, i * size, size, fields[i]);
    return count * size;
}

}  // namespace

PebsWriteResult write_pebs_record(const GuestMemory& memory, std::uint64_t ds_area, bool long_mode, std::uint64_t eip,
                                  const RegisterSnapshot* regs) {
    PebsWriteResult result;
    if (!memory.read || !memory.write) return result;
    const DsLayout& ds = long_mode ? kDs64 : kDs32;
    std::uint64_t index = 0, maximum = 0, threshold = 0, reset = 0;
    if (!read_field(memory, ds_area + ds.index, ds.field, &index) ||
        !read_field(memory, ds_area + ds.maximum, ds.field, &maximum) ||
        !read_field(memory, ds_area + ds.threshold, ds.field, &threshold) ||
        !read_field(memory, ds_area + ds.reset, 8, &reset))
        return result;
    result.have_reset = true;
    result.counter_reset = reset;
    // Once the index reaches the absolute maximum no record is written (a record must fit before it).
    if (index >= maximum || maximum - index < ds.record) return result;

    unsigned char record[kPebsRecordSize64];
    const unsigned size = build_record(record, long_mode, eip, regs);
    if (!memory.write(memory.context, index, record, size)) return result;
    const std::uint64_t next = index + size;
    unsigned char field[8];
    put(field, 0, ds.field, next);
    if (!memory.write(memory.context, ds_area + ds.index, field, ds.field)) return result;
    result.written = true;
    result.address = index;
    result.threshold = next >= threshold;
    return result;
}

unsigned pebs_record_size(bool long_mode) { return long_mode ? kPebsRecordSize64 : kPebsRecordSize32; }

bool write_ds_area(const GuestMemory& memory, std::uint64_t ds_area, bool long_mode, const DsAreaSetup& setup) {
    if (!memory.write) return false;
    const DsLayout& ds = long_mode ? kDs64 : kDs32;
    const struct {
        unsigned offset, size;
        std::uint64_t value;
    } fields[] = {{ds.base, ds.field, setup.buffer_base},
                  {ds.index, ds.field, setup.index},
                  {ds.maximum, ds.field, setup.absolute_maximum},
                  {ds.threshold, ds.field, setup.interrupt_threshold},
                  {ds.reset, 8, setup.counter_reset}};  // 8 bytes in both layouts, as write_pebs_record reads it
    for (const auto& f : fields) {
        unsigned char bytes[8];
        put(bytes, 0, f.size, f.value);
        if (!memory.write(memory.context, ds_area + f.offset, bytes, f.size)) return false;
    }
    return true;
}

bool set_pebs_index(const GuestMemory& memory, std::uint64_t ds_area, bool long_mode, std::uint64_t index) {
    if (!memory.write) return false;
    const DsLayout& ds = long_mode ? kDs64 : kDs32;
    unsigned char bytes[8];
    put(bytes, 0, ds.field, index);
    return memory.write(memory.context, ds_area + ds.index, bytes, ds.field);
}

}  // namespace netburst::emu
