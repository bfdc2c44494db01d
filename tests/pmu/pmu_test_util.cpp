#include "tests/pmu/pmu_test_util.h"

#include <cstring>

namespace netburst::emu::test {

std::uint32_t escr_msr(const char* name) {
    const EscrId id = find_escr(name);
    EXPECT_NE(id, EscrId::None) << name;
    return id == EscrId::None ? 0 : kEscrs[escr_index(id)].msr;
}

const EventDef& event(const char* name) {
    const EventDef* e = find_event(name, std::strlen(name));
    EXPECT_NE(e, nullptr) << name;
    return e ? *e : kEvents[0];
}

unsigned mask_bit(const char* event_name, const char* mask) {
    const MaskDef* m = find_mask(event(event_name), mask, std::strlen(mask));
    EXPECT_NE(m, nullptr) << event_name << ":" << mask;
    return m ? m->bit : 0;
}

std::uint16_t mask_bits(const char* event_name, std::initializer_list<const char*> masks) {
    unsigned bits = 0;
    for (const char* m : masks) bits |= 1u << mask_bit(event_name, m);
    return static_cast<std::uint16_t>(bits);
}

std::uint64_t escr_value(const char* event_name, std::initializer_list<const char*> masks, unsigned tbits,
                         unsigned tag_value) {
    EscrFields f;
    f.t1_usr = tbits & T1_USR;
    f.t1_os = tbits & T1_OS;
    f.t0_usr = tbits & T0_USR;
    f.t0_os = tbits & T0_OS;
    f.tag_enable = tag_value != 0;
    f.tag_value = static_cast<std::uint8_t>(tag_value);
    f.event_mask = mask_bits(event_name, masks);
    f.event_select = event(event_name).event_select;
    return encode_escr(f);
}

std::uint64_t cccr_value(const char* event_name, CccrFields extra) {
    extra.enable = true;
    extra.escr_select = event(event_name).cccr_select;
    return encode_cccr(extra);
}

namespace {
bool mem_read(void* ctx, std::uint64_t address, void* buffer, unsigned size) {
    auto* m = static_cast<FakeMemory*>(ctx);
    auto* out = static_cast<std::uint8_t*>(buffer);
    for (unsigned i = 0; i < size; ++i) {
        auto it = m->bytes.find(address + i);
        if (it == m->bytes.end()) return false;
        out[i] = it->second;
    }
    return true;
}
bool mem_write(void* ctx, std::uint64_t address, const void* buffer, unsigned size) {
    auto* m = static_cast<FakeMemory*>(ctx);
    const auto* in = static_cast<const std::uint8_t*>(buffer);
    for (unsigned i = 0; i < size; ++i) {
        auto it = m->bytes.find(address + i);
        if (it == m->bytes.end()) return false;  // only memory the test mapped is accessible
        it->second = in[i];
    }
    return true;
}
}  // namespace

GuestMemory FakeMemory::view() {
    GuestMemory g;
    g.context = this;
    g.read = mem_read;
    g.write = mem_write;
    return g;
}

void FakeMemory::put64(std::uint64_t address, std::uint64_t value, unsigned size) {
    for (unsigned i = 0; i < size; ++i) bytes[address + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::uint64_t FakeMemory::get64(std::uint64_t address, unsigned size) const {
    std::uint64_t v = 0;
    for (unsigned i = 0; i < size; ++i) {
        auto it = bytes.find(address + i);
        if (it != bytes.end()) v |= std::uint64_t{it->second} << (8 * i);
    }
    return v;
}

Outcome instruction(std::uint64_t pc, Cycle retire, unsigned thread, unsigned cpl) {
    Outcome o;
    o.thread = static_cast<std::uint8_t>(thread);
    o.cpl = static_cast<std::uint8_t>(cpl);
    o.pc = pc;
    o.fetch = retire;
    o.retire = retire;
    o.frontier = retire;
    UopRecord* u = o.add_uop();
    u->retire = retire;
    u->last_of_instruction = true;
    return o;
}

Outcome event_at(Cycle cycle, EventId ev, unsigned bit, unsigned count, unsigned thread, unsigned cpl) {
    Outcome o;
    o.thread = static_cast<std::uint8_t>(thread);
    o.cpl = static_cast<std::uint8_t>(cpl);
    o.pc = 0x1000 + cycle;
    o.fetch = o.retire = o.frontier = cycle;
    o.add_event(cycle, ev, bit, count);
    return o;
}

}  // namespace netburst::emu::test
