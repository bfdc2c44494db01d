// The at-retirement metric recipes. Sources: SDM Vol. 3B Tables 19-31, 19-32 and 19-33 (A-11 to A-13 in older
// editions), cross-checked against the replay tables of Linux (p4_pebs_bind_map), libpfm3 and PAPI's perfctr
// substrate (p4_replay_regs). The values are facts; the layout and wording are ours.
#include "table/metrics.h"

#include "table/ascii.h"

namespace netburst {

namespace {

constexpr std::uint32_t kUopTag = 1u << kPebsEnableUopTagBit;
constexpr std::uint32_t kMvLoads = 1u << 0;
constexpr std::uint32_t kMvStores = 1u << 1;
constexpr std::uint32_t kMvBranches = 1u << 4;

constexpr std::uint16_t bit(unsigned b) { return static_cast<std::uint16_t>(1u << b); }

constexpr MetricDef front_end(MetricId id, const char* name, std::uint16_t uop_type_mask, const char* desc) {
    return MetricDef{id,  name, TagMechanism::FrontEnd, "19-31", true, EventId::UopType, uop_type_mask, EscrId::None,
                     EventId::FrontEndEvent, 0, 0, 0, nullptr, desc, nullptr};
}

constexpr MetricDef execution(MetricId id, const char* name, EventId upstream, std::uint16_t mask, const char* desc,
                              const char* note = nullptr) {
    return MetricDef{id, name, TagMechanism::Execution, "19-32", true, upstream, mask, EscrId::None,
                     EventId::ExecutionEvent, 0, 0, 0, nullptr, desc, note};
}

constexpr MetricDef replay(MetricId id, const char* name, std::uint32_t pebs_enable_selects, std::uint32_t mv,
                           const char* replay_mask, const char* desc, const char* note = nullptr) {
    return MetricDef{id,  name, TagMechanism::Replay, "19-33", false, EventId::ReplayEvent, 0, EscrId::None,
                     EventId::ReplayEvent, pebs_enable_selects | kUopTag, mv, 0, replay_mask, desc, note};
}

constexpr MetricDef replay_with(MetricId id, const char* name, std::uint32_t pebs_enable_selects, std::uint32_t mv,
                                EventId upstream, std::uint16_t mask, EscrId escr, const char* replay_mask,
                                const char* desc, const char* note = nullptr) {
    return MetricDef{id,  name, TagMechanism::Replay, "19-33", true, upstream, mask, escr,
                     EventId::ReplayEvent, pebs_enable_selects | kUopTag, mv, 0, replay_mask, desc, note};
}

constexpr std::uint16_t kAll = bit(15);

}  // namespace

extern constexpr MetricDef kMetrics[kNumMetrics] = {
    front_end(MetricId::MemoryLoads, "memory_loads", bit(1), "load uops retired (uop_type TAGLOADS)"),
    front_end(MetricId::MemoryStores, "memory_stores", bit(2), "store uops retired (uop_type TAGSTORES)"),

    execution(MetricId::PackedSpRetired, "packed_SP_retired", EventId::PackedSpUop, kAll,
              "packed single-precision SSE uops retired"),
    execution(MetricId::PackedDpRetired, "packed_DP_retired", EventId::PackedDpUop, kAll,
              "packed double-precision SSE2 uops retired"),
    execution(MetricId::ScalarSpRetired, "scalar_SP_retired", EventId::ScalarSpUop, kAll,
              "scalar single-precision SSE uops retired"),
    execution(MetricId::ScalarDpRetired, "scalar_DP_retired", EventId::ScalarDpUop, kAll,
              "scalar double-precision SSE2 uops retired"),
    execution(MetricId::Mmx64Retired, "64bit_MMX_retired", EventId::Mmx64Uop, kAll, "64-bit MMX uops retired"),
    execution(MetricId::Mmx128Retired, "128bit_MMX_retired", EventId::Mmx128Uop, kAll,
              "128-bit integer SSE2 uops retired"),
    execution(MetricId::X87FpRetired, "x87_FP_retired", EventId::X87FpUop, kAll,
              "x87 floating-point computation uops retired"),
    execution(MetricId::X87SimdMemoryMovesRetired, "x87_SIMD_memory_moves_retired", EventId::X87SimdMovesUop,
              bit(3) | bit(4), "x87 and SIMD load, store and move uops retired",
              "Upstream x87_SIMD_moves_uop with ALLP0 and ALLP2; the row is cut short in the 2016 SDM and taken "
              "from older editions."),

    replay(MetricId::L1LoadMissRetired, "1stL_cache_load_miss_retired", 1u << 0, kMvLoads, "L1_LD_MISS",
           "load uops retired that missed the L1 data cache at least once"),
    replay(MetricId::L2LoadMissRetired, "2ndL_cache_load_miss_retired", 1u << 1, kMvLoads, "L2_LD_MISS",
           "load uops retired that missed the L2 cache at least once"),
    replay(MetricId::DtlbLoadMissRetired, "DTLB_load_miss_retired", 1u << 2, kMvLoads, "DTLB_LD_MISS",
           "load uops retired that missed the DTLB"),
    replay(MetricId::DtlbStoreMissRetired, "DTLB_store_miss_retired", 1u << 2, kMvStores, "DTLB_ST_MISS",
           "store uops retired that missed the DTLB"),
    replay(MetricId::DtlbAllMissRetired, "DTLB_all_miss_retired", 1u << 2, kMvLoads | kMvStores, "DTLB_ALL_MISS",
           "load and store uops retired that missed the DTLB"),
    replay(MetricId::TaggedMispredBranch, "Tagged_mispred_branch", (1u << 15) | (1u << 16), kMvBranches, "BR_MSP",
           "mispredicted branches retired, counted through replay tagging",
           "Linux writes IA32_PEBS_ENABLE 0x01018000; libpfm3 and PAPI's perfctr substrate add bit 0 (0x01018001). "
           "We follow the bits the SDM row lists (15, 16 and UOP_TAG); bit 25 only arms PEBS sampling."),
    replay_with(MetricId::MobLoadReplayRetired, "MOB_load_replay_retired", 1u << 9, kMvLoads, EventId::MobLoadReplay,
                bit(4) | bit(5), EscrId::None, "MOB_LD_REPLAY",
                "load uops retired that were replayed by the memory order buffer",
                "Needs MOB_load_replay with PARTIAL_DATA and UNALGN_ADDR as the extra select."),
    replay_with(MetricId::SplitLoadRetired, "split_load_retired", 1u << 10, kMvLoads, EventId::LoadPortReplay, bit(1),
                EscrId::SAAT_ESCR1, "SP_LD_RET", "load uops retired that split a cache line",
                "Needs load_port_replay:SPLIT_LD on SAAT_ESCR1, as the event's note requires."),
    replay_with(MetricId::SplitStoreRetired, "split_store_retired", 1u << 10, kMvStores, EventId::StorePortReplay,
                bit(1), EscrId::SAAT_ESCR1, "SP_ST_RET", "store uops retired that split a cache line",
                "Table 19-33 names SAAT_ESCR0 but store_port_replay's own note requires ESCR1 for at-retirement "
                "counting; we follow the event note, which matches load_port_replay and split_load_retired."),
};

const char* tag_mechanism_name(TagMechanism mechanism) {
    switch (mechanism) {
    case TagMechanism::FrontEnd: return "front-end";
    case TagMechanism::Execution: return "execution";
    case TagMechanism::Replay: return "replay";
    }
    return "?";
}

const MetricDef* find_metric(const char* name, std::size_t len) {
    for (const MetricDef& metric : kMetrics)
        if (ascii_iequal_n(name, len, metric.name)) return &metric;
    return nullptr;
}

const MetricDef* find_metric_by_replay_mask(const char* name, std::size_t len) {
    for (const MetricDef& metric : kMetrics)
        if (metric.replay_mask && ascii_iequal_n(name, len, metric.replay_mask)) return &metric;
    return nullptr;
}

std::uint16_t metric_counting_mask(const MetricDef& metric, bool nbogus, bool bogus, unsigned tag_bit) {
    if (metric.mechanism == TagMechanism::Execution) return execution_counting_mask(nbogus, bogus, tag_bit);
    return static_cast<std::uint16_t>((nbogus ? 1u : 0u) | (bogus ? 2u : 0u));
}

}  // namespace netburst
