// What the core model drives, event by event and mask bit by mask bit, and which of those counts depend on timing.
// doc/emulator-coverage.md is generated from this table; keep the notes in step with the model.
#include "emulator/model/coverage.h"

namespace netburst::emu {

namespace {

constexpr Coverage M = Coverage::Modelled;
constexpr Coverage A = Coverage::Approximate;
constexpr Coverage N = Coverage::NotModelled;

// Coverage of each mask bit 0-15 of an event (bits the table does not define are N), and the mask bits whose count
// depends on timing (see timing_dependent() in model/coverage.h).
struct Row {
    Coverage bits[16];
    const char* note;
    std::uint16_t timing;
};

constexpr Row row(Coverage all, const char* note) {
    return Row{{all, all, all, all, all, all, all, all, all, all, all, all, all, all, all, all}, note, 0};
}
constexpr Row with(Row r, unsigned bit, Coverage c) {
    r.bits[bit] = c;
    return r;
}
// The mask bits of `r` whose counts depend on timing.
constexpr Row timed(Row r, std::uint16_t bits) {
    r.timing = static_cast<std::uint16_t>(r.timing | bits);
    return r;
}
constexpr std::uint16_t kAllBits = 0xFFFF;

constexpr Row kIoq = with(with(with(with(with(with(with(with(with(with(with(row(N,
    "One record per bus transaction of this processor: demand reads and reads for ownership as ALL_READ, write-backs "
    "as ALL_WRITE, adjacent-sector fetches as PREFETCH. All are write-back memory, OWN, default request type; the "
    "qualifier bits are not carried by the records (see 'Bus request records'). Memory types other than WB and "
    "other agents' requests are not modelled."),
    0, A), 1, A), 2, A), 3, A), 4, A), 5, A), 6, A), 11, A), 13, A), 15, A), 14, N);

constexpr Row kBsq = with(with(with(row(N,
    "One record per BSQ entry: demand reads as REQ_DEM_TYPE, reads for ownership as REQ_TYPE0, write-backs as "
    "REQ_TYPE1. The length, I/O, lock, split, ordering and memory-type encodings cannot be carried by one mask bit "
    "and are not modelled (see 'Bus request records')."),
    0, A), 1, A), 9, A);

constexpr Row table_row(EventId id) {
    switch (id) {
    case EventId::TcDeliverMode:
        return timed(row(M, "Per-cycle modes of both logical processors as intervals: deliver (trace-cache hit), build "
                      "(decoding after a miss), idle (stopped, paused, in a microcode ROM flow or clearing); with "
                      "one logical processor LP1 is idle, so only DI, BI (and ID, IB) occur."), kAllBits);
    case EventId::BpuFetchRequest:
        return row(A, "One request per 64-byte code block fetched from the L2 in build mode.");
    case EventId::ItlbReference:
        return with(row(A, "One ITLB lookup (128 entries, 4-way, per logical processor) per build-mode code fetch; "
                           "the trace cache is virtually addressed so hits in deliver mode do not look up. HIT_UC "
                           "needs memory types the input does not carry."),
                    2, N);
    case EventId::MemoryCancel:
        return timed(with(row(N, "64K_CONF: a load that finds in the L1 a line of another address with the same linear "
                           "address bits 15:6 (21:6 on Prescott; also the same linear address in the other logical "
                           "processor's address space), or whose address equals an in-flight older store's modulo "
                           "64 KB without overlapping it. ST_RB_FULL (store request buffers) is not modelled."),
                    3, A), kAllBits);
    case EventId::MemoryComplete:
        return with(with(row(N, "LSC/SSC when a load or store that crosses a 64-byte line completes. USC and ULC "
                                "have no documented meaning."),
                         0, M),
                    1, M);
    case EventId::LoadPortReplay:
        return row(M, "Every load crossing a 64-byte line is replayed once at the load port.");
    case EventId::StorePortReplay:
        return row(M, "Every store crossing a 64-byte line is replayed once at the store port.");
    case EventId::MobLoadReplay:
        return timed(row(A, "Store-forwarding rules: NO_STA (older store address unknown), NO_STD (forwarding data not "
                      "ready), PARTIAL_DATA and UNALGN_ADDR (overlap that cannot forward), one record per replayed "
                      "load."), kAllBits);
    case EventId::PageWalkType:
        return row(A, "A page walk per DTLB miss (64 entries, fully associative, LRU) and per ITLB miss; wrong-path "
                      "uops do not access memory, so their speculative walks are missing.");
    case EventId::BsqCacheReference:
        // HITS (a hit on a Shared line) is exact as zero, not unmodelled: the emulated machine is one package with
        // no other caching agent on the bus, and its two logical processors share the L2, so no line is ever
        // Shared. Treating HITS as unsupported would refuse PAPI_L2_TCH and PAPI_L2_TCA, whose recipes OR it in.
        return row(A, "L2 (and L3) lookups of loads, code fetches and committed stores, Exclusive or Modified; no "
                      "other caching agent is modelled, so no line is ever Shared and HITS counts zero, as on a "
                      "single-package machine; there is no hardware prefetcher.");
    case EventId::IoqAllocation: return kIoq;
    case EventId::IoqActiveEntries: return timed(kIoq, kAllBits);
    case EventId::FsbDataActivity:
        return timed(with(with(row(A, "Data-bus cycles of this processor's transfers: DRDY for every data clock, DBSY for "
                                "all but the last. Other agents are not modelled."),
                         2, N),
                    5, N), kAllBits);
    case EventId::BsqAllocation: return kBsq;
    case EventId::BsqActiveEntries: return timed(kBsq, kAllBits);
    case EventId::SseInputAssist:
        return row(N, "Needs operand values (denormals), which the input does not carry.");
    case EventId::PackedSpUop:
    case EventId::PackedDpUop:
    case EventId::ScalarSpUop:
    case EventId::ScalarDpUop:
    case EventId::Mmx64Uop:
    case EventId::Mmx128Uop:
        return timed(row(A, "One uop per instruction of the class when it executes; wrong-path uops are synthesised from "
                      "recent correct-path uops."), kAllBits);
    case EventId::X87FpUop:
        return timed(row(A, "One uop per x87 arithmetic or divide instruction, every uop of a transcendental microcode "
                      "flow; wrong-path uops are synthesised."), kAllBits);
    case EventId::X87SimdMovesUop:
        return timed(row(A, "ALLP0 for x87/SIMD register moves and store data, ALLP2 for x87/SIMD loads (including the "
                      "load of a load-op); wrong-path uops are synthesised."), kAllBits);
    case EventId::TcMisc:
        return row(A, "Trace-cache flushes, counted twice each: the model flushes when a store hits a 1 KB region "
                      "of code held in the trace cache (self-modifying code).");
    case EventId::GlobalPowerEvents:
        return timed(row(M, "Every cycle from the start until the logical processor stops, as intervals."), kAllBits);
    case EventId::TcMsXfer:
        return row(A, "Each switch to the microcode ROM, counted twice (table note).");
    case EventId::UopQueueWrites:
        return timed(row(A, "Every delivered uop by source: trace cache in deliver mode, decoder in build mode, ROM; "
                      "wrong-path uops count as delivered (FROM_TC_DELIVER)."), 1u << 1);
    case EventId::RetiredMispredBranchType:
        return with(row(M, "Mispredicted retired branches by class at retirement: conditional, indirect call "
                           "(CALL and INDIRECT), return (RETURN and INDIRECT), indirect jump (INDIRECT). Direct "
                           "jumps are never mispredicted in the model."),
                    0, A);
    case EventId::RetiredBranchType:
        return with(row(M, "Retired branches by class: CONDITIONAL, CALL (direct and indirect), RETURN, INDIRECT "
                           "(returns, indirect calls and jumps); UNCONDITIONAL for direct jumps."),
                    0, A);
    case EventId::ResourceStall:
        return timed(row(M, "Cycles allocation waits for a store buffer entry, as intervals."), kAllBits);
    case EventId::WcBuffer:
        return row(N, "Write-combining memory and non-temporal stores are not distinguished by the input.");
    case EventId::B2bCycles:
    case EventId::Bnr:
    case EventId::Snoop:
    case EventId::Response:
        return row(N, "No documented semantics (and they concern other bus agents).");
    case EventId::FrontEndEvent:
        return timed(row(M, "The PMU counts it from the uop records (kind Load/Store for uop_type tagging, bogus flag)."), 1u << 1);
    case EventId::ExecutionEvent:
        return timed(row(M, "The PMU counts it from the uop records (execution event, bogus flag)."), 0xF0);
    case EventId::ReplayEvent:
        return timed(with(row(M, "The PMU counts it from the uop records' replay causes; wrong-path uops never carry one, "
                           "so BOGUS counts only what the PMU's tagging allows. NBOGUS depends on timing only when MOB replays are "
                           "selected (the PMU then runs the timing tier)."),
                    1, A), 1u << 1);
    case EventId::InstrRetired:
        return timed(row(M, "The PMU counts it from the uop records (last_of_instruction, bogus flag); wrong-path "
                      "instruction boundaries follow the synthesised uops."), 1u << 2 | 1u << 3);
    case EventId::UopsRetired:
        return timed(with(row(M, "The PMU counts it from the uop records. Microcode flows longer than the record cap "
                           "(long rep strings) are summarised and under-counted."),
                    1, A), 1u << 1);
    case EventId::UopType:
        return row(M, "Load uops are kind Load, store-address uops kind Store.");
    case EventId::BranchRetired:
        return row(M, "Every retired branch by taken/not taken and predicted/mispredicted.");
    case EventId::MispredBranchRetired:
        return row(M, "Every retired mispredicted branch.");
    case EventId::X87Assist:
        return row(N, "Needs operand values and x87 stack state the input does not carry.");
    case EventId::MachineClear:
        return timed(with(with(row(N, "Self-modifying-code clears (a store into code held in the trace cache) and their "
                                "cycles; memory-ordering clears need snoops from other agents and are not "
                                "modelled."),
                         0, A),
                    6, A), 1u << 0);
    case EventId::InstrCompleted:
        return timed(row(M, "The PMU counts it from the uop records."), 1u << 1);
    case EventId::Count_: break;
    }
    return row(N, "Not an event.");
}

}  // namespace

Coverage coverage(EventId event, unsigned mask_bit) {
    if (event >= EventId::Count_ || mask_bit >= 16) return Coverage::NotModelled;
    const EventDef& def = event_def(event);
    if ((valid_mask_bits(def) >> mask_bit & 1u) == 0) return Coverage::NotModelled;
    return table_row(event).bits[mask_bit];
}

bool timing_dependent(EventId event, unsigned mask_bit) {
    if (coverage(event, mask_bit) == Coverage::NotModelled) return false;
    return (table_row(event).timing >> mask_bit & 1u) != 0;
}

const char* coverage_note(EventId event) {
    if (event >= EventId::Count_) return "Not an event.";
    return table_row(event).note;
}

}  // namespace netburst::emu
