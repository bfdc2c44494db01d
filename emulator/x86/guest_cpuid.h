// What the guest's CPUID answers under the netburst tool: the emulated Pentium 4, not the host.
//
// Libraries dispatch on CPUID (glibc's string functions and its ld.so, GMP, OpenBLAS): with the host's answer they
// run code paths no Pentium 4 could execute, and the counts are for another program. The answer has two parts:
// - the identity and feature flags of one real part per model, as its CPUID dump records them (guest_cpuid.cpp
//   names each dump);
// - everything the emulator decides: the caches and TLBs (leaf 2, leaf 4, 0x80000006) from the machine
//   description the PAPI component also gets (machine_info.h), and the topology (--ht: leaf 1's HTT flag, logical
//   processor count and initial APIC ID; leaf 4's sharing).
// doc/guest-cpu.md has the table per model and what stays unlike a Pentium 4.
//
// Freestanding: the Valgrind tool links it.
#pragma once

#include <cstdint>

#include "emulator/protocol/netburst_client.h"

namespace netburst::emu::vg {

struct CpuidRegs {
    std::uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

// The identity of the part a model's CPUID describes (one real part's dump; see guest_cpuid.cpp).
struct GuestCpuIdentity {
    unsigned stepping;
    std::uint32_t max_basic;      // leaf 0 EAX
    std::uint32_t max_extended;   // leaf 0x80000000 EAX
    std::uint8_t brand_index;     // leaf 1 EBX[7:0]
    std::uint32_t features_ecx;   // leaf 1 ECX
    std::uint32_t features_edx;   // leaf 1 EDX, without HTT (bit 28), which --ht decides
    std::uint32_t extended_ecx;   // leaf 0x80000001 ECX (bit 0: LAHF/SAHF in 64-bit mode)
    std::uint32_t extended_edx;   // leaf 0x80000001 EDX (bit 29: Intel 64 / EM64T, bit 20: XD)
    std::uint32_t address_sizes;  // leaf 0x80000008 EAX, where max_extended reaches it
    const char* brand;            // leaves 0x80000002-4: 47 characters and the NUL, padding included
};

// nullptr for a model that does not exist.
const GuestCpuIdentity* guest_cpu_identity(unsigned model);

// The nominal core frequency in MHz that the model's brand string states ("1700MHz", "2.80GHz"): the rate of the
// guest's clock with --clock=emulated. 0 for a model that does not exist.
unsigned guest_cpu_mhz(unsigned model);

// CPUID with EAX = leaf and ECX = subleaf on the machine `m` (its model, Hyper-Threading, caches and TLBs) for the
// logical processor `lp`.
CpuidRegs guest_cpuid(const nb_emulator_info& m, unsigned lp, std::uint32_t leaf, std::uint32_t subleaf);

// Leaf 4's answer for cache `index` (deterministic cache parameters: the L1 data cache, the L2, the L3 when present,
// then type 0), whatever the model's maximum leaf: CPUID answers it on models 3-6, and the guest's sysfs cache tree
// (guest_cpu_view.h) describes every model's caches with it.
CpuidRegs guest_cache_parameters(const nb_emulator_info& m, std::uint32_t index);

// A CPUID feature flag: the bit of a register of a leaf (subleaf 0).
struct CpuidFeature {
    std::uint32_t leaf;
    std::uint8_t reg;  // 0 EAX, 1 EBX, 2 ECX, 3 EDX
    std::uint8_t bit;
};
bool guest_has_feature(const nb_emulator_info& m, CpuidFeature f);

// The leaf-2 descriptor bytes of the caches and TLBs of `m`, in the order a Pentium 4 lists them (the first is
// AL = 01H, the iteration count). Returns how many were written; a cache that no descriptor describes is left out
// (the unit test requires every model's caches to have one).
unsigned leaf2_descriptors(const nb_emulator_info& m, std::uint8_t* out, unsigned capacity);

}  // namespace netburst::emu::vg
