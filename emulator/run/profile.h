// A sampled run as `netburst-run record` hands it to its writers (perf.data, callgrind format): the events and how
// each was sampled, the processes with their threads and mappings, the samples, each instruction's exact count,
// the call edges (--callgrind) and where instructions are in the source. Filled from the tool's sample files (sample_input.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "emulator/model/emulated_machine.h"

namespace netburst::emu::run {

// perf's union perf_mem_data_src, in the fields a NetBurst at-retirement metric can tell (what kind of access, and
// which level or TLB missed); `none` when the event says nothing about memory.
struct DataSource {
    bool none = true;
    bool load = false;
    bool store = false;
    enum class Level : std::uint8_t { Unknown, L1Miss, L2Miss } level = Level::Unknown;
    bool tlb_miss = false;
};

struct SampledEvent {
    std::string name;            // as the user gave it (with :precise=N)
    std::string native;          // the canonical native event or metric it counts
    std::uint64_t period = 0;
    std::uint64_t frequency = 0;  // -F (or the cycle default): samples a second of the emulated clock; else 0
    bool precise = false;        // PEBS
    unsigned precise_level = 0;  // perf's precise_ip (the N of :precise=N)
    bool user_only = true;       // counts at CPL 3 only
    bool kernel_only = false;
    std::uint64_t raw_config = 0;  // the counting unit's ESCR (high 32 bits) and CCCR (low 32 bits)
    DataSource data_source;
    std::uint64_t exact_total = 0;  // the event's count over the whole run (all processes)
    bool exact_unsupported = false;
    // --timing=sampled: exact_total is an estimate, within +- total_half_width with 99.7 % confidence.
    bool total_estimated = false;
    std::uint64_t total_half_width = 0;
    bool callchain = false;      // -g: every sample has its call chain (PERF_SAMPLE_CALLCHAIN)
};

struct Sample {
    unsigned event = 0;      // which of Profile::events
    std::size_t image = 0;   // the process image it belongs to (Profile::processes)
    std::uint32_t pid = 0;
    std::uint32_t tid = 0;
    std::uint64_t time = 0;  // emulated cycles (after its image's time_offset is added)
    std::uint64_t ip = 0;
    bool precise = false;
    bool has_addr = false;
    std::uint64_t addr = 0;
    // With -g: the return addresses of the thread's shadow call stack at `ip`, innermost first (the callers' call
    // sites' next instructions).
    std::vector<std::uint64_t> callers;
};

struct Mapping {
    std::uint64_t start = 0;
    std::uint64_t length = 0;
    std::uint64_t pgoff = 0;
    std::uint32_t prot = 0;  // 1 read, 2 write, 4 execute
    std::uint64_t dev = 0;   // as stat's st_dev
    std::uint64_t inode = 0;
    std::string path;        // "//anon" for anonymous memory
    bool executable() const { return (prot & 4) != 0; }
    bool contains(std::uint64_t a) const { return a >= start && a - start < length; }
};

// Calls from one call site to one callee (the samples file's `call` lines), with what happened while they were
// open, callees included, per event (Profile::events' order).
struct CallEdge {
    std::uint64_t calls = 0;
    std::vector<std::uint64_t> exact;    // the exact count
    std::vector<std::uint64_t> samples;  // samples taken (the sampled cost is samples x period)
};

struct SourcePlace {
    std::string function;
    std::string file;
    unsigned line = 0;
};

// One process image: a process, or what it became after an exec (the same pid, the next image).
struct Process {
    std::uint32_t pid = 0;
    std::string exe;                    // the executable's path
    bool after_exec = false;            // an earlier image of this pid exec'd into this one
    std::uint64_t cycles = 0;           // the image's last emulated cycle (each image's emulator starts at 0)
    std::uint64_t time_offset = 0;      // added to its cycles, so that a pid's images follow one another in time
    std::vector<std::uint32_t> tids;    // threads that have samples, the main thread first
    std::vector<Mapping> maps;          // by start address
    // Per event (Profile::events' order): instruction address -> exact count.
    std::vector<std::map<std::uint64_t, std::uint64_t>> exact;
    std::map<std::uint64_t, SourcePlace> places;    // instruction address -> source place
    // --callgrind: (call site, callee) -> the calls and their inclusive costs.
    std::map<std::pair<std::uint64_t, std::uint64_t>, CallEdge> calls;
    std::uint64_t lost = 0;             // interrupts that returned nowhere
    std::uint64_t chain_overflow = 0;   // -g: calls deeper than the shadow stacks hold
    std::uint64_t kernel_low = 0;       // the synthetic kernel paths' code: kernel_low <= IP < kernel_high
    std::uint64_t kernel_high = 0;
    const Mapping* map_of(std::uint64_t address) const;
    bool in_kernel(std::uint64_t ip) const { return ip >= kernel_low && ip < kernel_high; }
    std::string comm() const;           // the executable's name as the kernel keeps it (15 characters)
};

struct Profile {
    EmulatedMachine machine;           // the emulated processor the program ran on
    std::vector<SampledEvent> events;  // in the order of record's -e (a sample's `event` indexes it)
    std::vector<Process> processes;  // process images: by pid, then in exec order
    std::vector<Sample> samples;     // in time order
    std::vector<std::string> command;
    const Process& image_of(const Sample& s) const { return processes.at(s.image); }
};

}  // namespace netburst::emu::run
