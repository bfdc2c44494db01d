// Reading counters with RDPMC from user space, and finding out safely whether that is allowed.
//
// RDPMC at CPL 3 works only when the kernel has set CR4.PCE; otherwise the processor raises #GP and the kernel
// sends SIGSEGV. Linux sets CR4.PCE for a task only in some configurations (/sys/bus/event_source/devices/cpu/
// rdpmc = 2 allows it for everyone), so the backend tries once, at initialisation, with SIGSEGV and SIGILL caught
// (sigsetjmp/siglongjmp), and falls back to pread on the MSR device when it faults.
//
// RDPMC reads the counter of the processor the thread runs on, so the backend uses it only when the thread is
// pinned to the CPU being counted; ECX = counter number with bit 31 clear returns all 40 bits.
#pragma once

#include <cstdint>

namespace netburst::component {

// Runs fn(arg) with SIGSEGV and SIGILL caught; true when it returned normally, false when it faulted. The
// previous signal dispositions are restored either way. Not thread-safe with respect to other code changing
// those dispositions at the same moment (it runs once, at component initialisation).
bool run_guarded(void (*fn)(void*), void* arg);

// RDPMC of `counter` on the current processor. Faults (SIGSEGV) unless CR4.PCE is set; call only after
// rdpmc_allowed() said yes. Always false/no-op on non-x86 builds.
std::uint64_t rdpmc(unsigned counter);

// Whether RDPMC of `counter` works for this process now (a guarded trial read).
bool rdpmc_allowed(unsigned counter);

}  // namespace netburst::component
