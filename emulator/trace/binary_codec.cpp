#include "emulator/trace/binary_codec.h"

namespace netburst::emu::trace {

namespace {

// Flags byte.
constexpr std::uint8_t kFlagTaken = 1u << 0;
constexpr std::uint8_t kFlagTarget = 1u << 1;
constexpr std::uint8_t kFlagRegs = 1u << 2;
constexpr std::uint8_t kFlagRep = 1u << 3;
constexpr std::uint8_t kFlagNonDefaultMode = 1u << 4;  // thread or cpl differ from thread 0, cpl 3
constexpr std::uint8_t kFlagMemShift = 5;               // bits 5-6: number of memory operands

std::size_t put_varint(std::uint64_t v, std::uint8_t* out) {
    std::size_t n = 0;
    while (v >= 0x80) {
        out[n++] = static_cast<std::uint8_t>(v | 0x80);
        v >>= 7;
    }
    out[n++] = static_cast<std::uint8_t>(v);
    return n;
}

// Reads a varint; returns bytes used, 0 if truncated, kDecodeError if longer than 10 bytes.
std::size_t get_varint(const std::uint8_t* in, std::size_t size, std::uint64_t* v) {
    std::uint64_t result = 0;
    for (std::size_t i = 0; i < 10; ++i) {
        if (i >= size) return 0;
        result |= static_cast<std::uint64_t>(in[i] & 0x7F) << (7 * i);
        if (!(in[i] & 0x80)) {
            *v = result;
            return i + 1;
        }
    }
    return kDecodeError;
}

std::uint64_t zigzag(std::int64_t v) { return (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63); }
std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

}  // namespace

std::size_t encode_record(const Instruction& insn, CodecState* state, std::uint8_t* out) {
    std::uint8_t flags = static_cast<std::uint8_t>((insn.num_mem & 3u) << kFlagMemShift);
    if (insn.taken) flags |= kFlagTaken;
    if (insn.target != 0) flags |= kFlagTarget;
    if (insn.reads || insn.writes) flags |= kFlagRegs;
    if (insn.rep_count_log2) flags |= kFlagRep;
    if (insn.thread != 0 || insn.cpl != 3) flags |= kFlagNonDefaultMode;
    std::size_t n = 0;
    out[n++] = flags;
    n += put_varint(zigzag(static_cast<std::int64_t>(insn.pc - state->last_pc)), out + n);
    state->last_pc = insn.pc + insn.length;
    out[n++] = insn.length;
    out[n++] = static_cast<std::uint8_t>(insn.cls);
    if (flags & kFlagNonDefaultMode) out[n++] = static_cast<std::uint8_t>((insn.thread << 4) | (insn.cpl & 3));
    for (unsigned i = 0; i < insn.num_mem && i < kMaxMemOperands; ++i) {
        const MemOperand& m = insn.mem[i];
        n += put_varint(zigzag(static_cast<std::int64_t>(m.address - state->last_mem)), out + n);
        state->last_mem = m.address;
        out[n++] = static_cast<std::uint8_t>((m.size & 0x7F) | (m.is_store ? 0x80 : 0));
    }
    if (flags & kFlagTarget) n += put_varint(zigzag(static_cast<std::int64_t>(insn.target - insn.pc)), out + n);
    if (flags & kFlagRep) out[n++] = insn.rep_count_log2;
    if (flags & kFlagRegs) {
        n += put_varint(insn.reads, out + n);
        n += put_varint(insn.writes, out + n);
    }
    return n;
}

std::size_t decode_record(const std::uint8_t* in, std::size_t size, CodecState* state_out, Instruction* insn) {
    // Decode against a copy: a truncated record must leave the delta state as it was, so that the caller can
    // refill its buffer and decode the same record again.
    CodecState copy = *state_out;
    CodecState* state = &copy;
    std::size_t n = 0;
    auto need = [&](std::size_t k) { return n + k <= size; };
    if (!need(1)) return 0;
    const std::uint8_t flags = in[n++];
    if (flags & 0x80) return kDecodeError;
    *insn = Instruction{};
    std::uint64_t v = 0;
    std::size_t used = get_varint(in + n, size - n, &v);
    if (used == 0 || used == kDecodeError) return used;
    n += used;
    insn->pc = state->last_pc + static_cast<std::uint64_t>(unzigzag(v));
    if (!need(2)) return 0;
    insn->length = in[n++];
    const std::uint8_t cls = in[n++];
    if (cls >= static_cast<std::uint8_t>(InsnClass::Count_) || insn->length == 0 || insn->length > 15)
        return kDecodeError;
    insn->cls = static_cast<InsnClass>(cls);
    state->last_pc = insn->pc + insn->length;
    if (flags & kFlagNonDefaultMode) {
        if (!need(1)) return 0;
        const std::uint8_t mode = in[n++];
        insn->thread = mode >> 4;
        insn->cpl = mode & 3;
        if (insn->thread > 1) return kDecodeError;
    }
    insn->num_mem = (flags >> kFlagMemShift) & 3;
    if (insn->num_mem > kMaxMemOperands) return kDecodeError;
    for (unsigned i = 0; i < insn->num_mem; ++i) {
        used = get_varint(in + n, size - n, &v);
        if (used == 0 || used == kDecodeError) return used;
        n += used;
        insn->mem[i].address = state->last_mem + static_cast<std::uint64_t>(unzigzag(v));
        state->last_mem = insn->mem[i].address;
        if (!need(1)) return 0;
        insn->mem[i].size = in[n] & 0x7F;
        insn->mem[i].is_store = (in[n] & 0x80) != 0;
        ++n;
        if (insn->mem[i].size == 0) return kDecodeError;
    }
    insn->taken = (flags & kFlagTaken) != 0;
    if (flags & kFlagTarget) {
        used = get_varint(in + n, size - n, &v);
        if (used == 0 || used == kDecodeError) return used;
        n += used;
        insn->target = insn->pc + static_cast<std::uint64_t>(unzigzag(v));
    }
    if (flags & kFlagRep) {
        if (!need(1)) return 0;
        insn->rep_count_log2 = in[n++];
    }
    if (flags & kFlagRegs) {
        used = get_varint(in + n, size - n, &v);
        if (used == 0 || used == kDecodeError) return used;
        n += used;
        insn->reads = v;
        used = get_varint(in + n, size - n, &v);
        if (used == 0 || used == kDecodeError) return used;
        n += used;
        insn->writes = v;
    }
    *state_out = copy;
    return n;
}

}  // namespace netburst::emu::trace
