// Which instruction-set extension an instruction belongs to, when it is one no Pentium 4 of some model had.
//
// The guest's CPUID describes the emulated Pentium 4 (guest_cpuid.h), so libraries that dispatch on it run code a
// Pentium 4 can run. A program may still execute newer instructions: code built with -mavx2 or -march=native, or
// that does not ask CPUID. Valgrind executes them all the same, and the emulator counts them as the class the
// opcode table gives them; the tool reports how many ran and where the first was (doc/guest-cpu.md). The opcode
// table (opcode_table.h) names each opcode's extension; an instruction is "missing" on a model when the CPUID
// feature flag of its extension is clear in that model's CPUID: one source of truth for what the model has.
//
// Only extensions later than SSE2 are recognised (and SSE3 with MONITOR, which models 3 and later have). 64-bit
// mode itself, which models 0-2 lack, is not reported per instruction (doc/guest-cpu.md).
//
// Freestanding: the Valgrind tool links it.
#pragma once

#include <cstdint>

#include "emulator/x86/guest_cpuid.h"

namespace netburst::emu::vg {

enum class GuestExtension : std::uint8_t {
    None,      // in every Pentium 4, or not recognised
    Sse3,      // haddps, addsubpd, movddup, lddqu, fisttp...
    Monitor,   // monitor, mwait
    Ssse3,     // pshufb, palignr, phaddw..., and other 0F 38 / 0F 3A opcodes not named below
    Sse41,
    Sse42,     // pcmpgtq, pcmpestri..., crc32
    Popcnt,
    Lzcnt,     // a Pentium 4 would run F3 0F BD as bsr
    Movbe,
    Aes,
    Pclmul,
    Sha,
    Adx,
    Gfni,
    Avx,       // any VEX-encoded instruction: AVX, AVX2, FMA, F16C, BMI1/2
    Avx512,    // any EVEX-encoded instruction
    Cx16,      // cmpxchg16b
    Lahf64,    // lahf/sahf in 64-bit mode
    Xsave,     // xsave, xrstor, xsaveopt, xsavec, xgetbv...
    Rdrand,
    Rdseed,
    Rdtscp,
    Fsgsbase,
    Prefetchw,
    Rtm,       // xbegin, xend, xabort, xtest
    Count_
};

const char* extension_name(GuestExtension e);   // "SSSE3", "AVX"...: one word
CpuidFeature extension_feature(GuestExtension e);

// e when the machine `m` lacks the extension (its feature flag is clear in m's CPUID), else None.
inline GuestExtension missing_extension(const nb_emulator_info& m, GuestExtension e) {
    return e != GuestExtension::None && !guest_has_feature(m, extension_feature(e)) ? e : GuestExtension::None;
}

}  // namespace netburst::emu::vg
