// The compact binary trace encoding: instruction records as variable-length byte strings, delta-coded against
// the previous record. Freestanding (no allocation, no C library), so the Valgrind tool can record traces.
// doc/trace-format.md describes the bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/model/instruction.h"

namespace netburst::emu::trace {

// File header: 8 magic bytes, then records.
constexpr char kBinaryMagic[8] = {'N', 'B', 'T', 'R', 'A', 'C', 'E', '1'};
// The longest encoded record (flags, pc, length/class, thread/cpl, two memory operands, target, rep, registers).
constexpr std::size_t kMaxRecordBytes = 96;

// Delta-coding state shared by encoder and decoder; both start from a zeroed one.
struct CodecState {
    std::uint64_t last_pc = 0;
    std::uint64_t last_mem = 0;
};

// Encodes one instruction; returns the number of bytes written into out (at most kMaxRecordBytes). The register
// snapshot is not recorded.
std::size_t encode_record(const Instruction& insn, CodecState* state, std::uint8_t* out);

// Decodes one record from [in, in + size). Returns bytes consumed, 0 when the record is truncated, or
// (std::size_t)-1 when it is malformed.
std::size_t decode_record(const std::uint8_t* in, std::size_t size, CodecState* state, Instruction* insn);

constexpr std::size_t kDecodeError = static_cast<std::size_t>(-1);

}  // namespace netburst::emu::trace
