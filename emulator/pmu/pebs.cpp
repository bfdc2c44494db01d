#include "emulator/pmu/pebs.h"

namespace netburst::emu {

namespace {

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
    const DsLayout& ds = long_mode ? kDsLayout64 : kDsLayout32;
    std::uint64_t index = 0, maximum = 0, threshold = 0, reset = 0;
    if (!read_field(memory, ds_area + ds.pebs_index, ds.field_bytes, &index) ||
        !read_field(memory, ds_area + ds.pebs_maximum, ds.field_bytes, &maximum) ||
        !read_field(memory, ds_area + ds.pebs_threshold, ds.field_bytes, &threshold) ||
        !read_field(memory, ds_area + ds.pebs_counter_reset, 8, &reset))
        return result;
    result.have_reset = true;
    result.counter_reset = reset;
    // Once the index reaches the absolute maximum no record is written (a record must fit before it).
    if (index >= maximum || maximum - index < ds.record_bytes()) return result;

    unsigned char record[kPebsRecordSize64];
    const unsigned size = build_record(record, long_mode, eip, regs);
    if (!memory.write(memory.context, index, record, size)) return result;
    const std::uint64_t next = index + size;
    unsigned char field[8];
    put(field, 0, ds.field_bytes, next);
    if (!memory.write(memory.context, ds_area + ds.pebs_index, field, ds.field_bytes)) return result;
    result.written = true;
    result.address = index;
    result.threshold = next >= threshold;
    return result;
}

unsigned pebs_record_size(bool long_mode) { return long_mode ? kPebsRecordSize64 : kPebsRecordSize32; }

bool write_ds_area(const GuestMemory& memory, std::uint64_t ds_area, bool long_mode, const DsAreaSetup& setup) {
    if (!memory.write) return false;
    const DsLayout& ds = long_mode ? kDsLayout64 : kDsLayout32;
    const struct {
        unsigned offset, size;
        std::uint64_t value;
    } fields[] = {{ds.pebs_base, ds.field_bytes, setup.buffer_base},
                  {ds.pebs_index, ds.field_bytes, setup.index},
                  {ds.pebs_maximum, ds.field_bytes, setup.absolute_maximum},
                  {ds.pebs_threshold, ds.field_bytes, setup.interrupt_threshold},
                  // 8 bytes in both layouts, as write_pebs_record reads it
                  {ds.pebs_counter_reset, 8, setup.counter_reset}};
    for (const auto& f : fields) {
        unsigned char bytes[8];
        put(bytes, 0, f.size, f.value);
        if (!memory.write(memory.context, ds_area + f.offset, bytes, f.size)) return false;
    }
    return true;
}

bool set_pebs_index(const GuestMemory& memory, std::uint64_t ds_area, bool long_mode, std::uint64_t index) {
    if (!memory.write) return false;
    const DsLayout& ds = long_mode ? kDsLayout64 : kDsLayout32;
    unsigned char bytes[8];
    put(bytes, 0, ds.field_bytes, index);
    return memory.write(memory.context, ds_area + ds.pebs_index, bytes, ds.field_bytes);
}

}  // namespace netburst::emu
