// Caches and TLBs: hand-computed hit/miss sequences, the 8 KB-apart thrash of the 4-way L1, and agreement of the
// replay-tagged L1 load misses with a plain set-associative LRU cache of the same geometry (what cachegrind's D1
// simulation counts with --D1=8192,4,64).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "emulator/core/lru_cache.h"
#include "emulator/core/tlb.h"
#include "tests/core/core_test_util.h"

namespace netburst::emu::test {
namespace {

// --- The LRU array by itself ----------------------------------------------------------------------------------------

TEST(CoreCache, LruSetHandSequence) {
    // One set of 4 ways: A B C D hit nothing, A hits (LRU order D C B A -> A D C B), E evicts B.
    LruCache<16, 4> c;
    c.reset(4 * 64, 4, 64);
    ASSERT_EQ(c.sets(), 1u);
    auto access = [&](std::uint64_t block) {
        if (c.touch(block) != nullptr) return true;
        CacheLine victim;
        c.insert(block, &victim);
        return false;
    };
    EXPECT_FALSE(access(1));
    EXPECT_FALSE(access(2));
    EXPECT_FALSE(access(3));
    EXPECT_FALSE(access(4));
    EXPECT_TRUE(access(1));
    CacheLine victim;
    c.insert(5, &victim);
    EXPECT_EQ(victim.block, 2u);  // least recently used
    EXPECT_TRUE(access(1));
    EXPECT_TRUE(access(3));
    EXPECT_TRUE(access(4));
    EXPECT_TRUE(access(5));
    EXPECT_FALSE(access(2));      // evicts 1, the LRU after 3 4 5 were touched
    EXPECT_FALSE(access(1));
}

TEST(CoreCache, LruGeometry) {
    LruCache<256, 16> l1;
    l1.reset(8 * 1024, 4, 64);
    EXPECT_EQ(l1.sets(), 32u);
    EXPECT_EQ(l1.line_bits(), 6u);
    l1.reset(16 * 1024, 8, 64);
    EXPECT_EQ(l1.sets(), 32u);
    EXPECT_EQ(l1.ways(), 8u);
}

TEST(CoreCache, DataTlbIsFullyAssociativeLru) {
    DataTlb tlb;
    tlb.reset(64);
    for (std::uint64_t p = 0; p < 64; ++p) EXPECT_FALSE(tlb.access(p * 977));  // any 64 pages fit
    for (std::uint64_t p = 0; p < 64; ++p) EXPECT_TRUE(tlb.access(p * 977));
    EXPECT_FALSE(tlb.access(100000));         // evicts page 0 (LRU)
    EXPECT_FALSE(tlb.access(0));
    EXPECT_TRUE(tlb.access(63 * 977));
}

// Against a plain LRU list, for every size of interest and access streams that alternate between two pages,
// walk through more pages than fit, jump around at random (a fixed seed), and stay on a few pages for long
// stretches (hits only: the recency log fills and drops what is no longer current).
TEST(CoreCache, DataTlbMatchesAPlainLruList) {
    for (unsigned entries : {1u, 2u, 3u, 4u, 63u, 64u}) {
        DataTlb tlb;
        tlb.reset(entries);
        std::vector<std::uint64_t> lru;  // most recent first
        unsigned i = 0;
        const auto check = [&](std::uint64_t page) {
            const auto it = std::find(lru.begin(), lru.end(), page);
            const bool hit = it != lru.end();
            if (hit) lru.erase(it);
            lru.insert(lru.begin(), page);
            if (lru.size() > entries) lru.pop_back();
            ASSERT_EQ(tlb.access(page), hit) << "entries " << entries << ", access " << i << ", page " << page;
            ++i;
        };
        std::uint64_t x = 12345;
        for (unsigned round = 0; round < 20; ++round) {
            for (unsigned k = 0; k < 1000; ++k) check(500 + k % (entries < 5 ? entries : 5));  // a few pages
            for (unsigned k = 0; k < 10000; ++k) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                switch ((x >> 60) & 3) {
                case 0: check((k & 1) ? 7 : (x >> 20) % 3); break;                    // two streams, mostly
                case 1: check(1000 + (k / 2) % (entries + 3)); break;                  // a walk that just does not fit
                case 2: check((x >> 24) % (2 * entries + 2)); break;                   // random within twice the size
                default: check(((x >> 30) % 5) * 256 + ((x >> 40) & 1)); break;       // colliding hash buckets
                }
            }
        }
    }
}

TEST(CoreCache, InstructionTlbSets) {
    InstructionTlb itlb;
    itlb.reset(128, 4);
    // 32 sets of 4: five pages 32 pages apart share a set; the fifth evicts the first.
    for (std::uint64_t i = 0; i < 5; ++i) EXPECT_FALSE(itlb.access(i * 32 * 4096));
    EXPECT_FALSE(itlb.access(0));
    EXPECT_TRUE(itlb.access(4 * 32 * 4096));
}

// --- Through the core --------------------------------------------------------------------------------------------

// A plain set-associative LRU cache counting one miss per access (an access crossing a line touches both lines
// and misses if either does): cachegrind's D1 model.
class ReferenceCache {
public:
    ReferenceCache(unsigned size, unsigned ways, unsigned line) : ways_(ways), line_(line) {
        sets_ = size / line / ways;
        tags_.assign(sets_ * ways_, ~std::uint64_t{0});
    }
    bool miss(std::uint64_t address, unsigned size) {
        const std::uint64_t b1 = address / line_, b2 = (address + size - 1) / line_;
        const bool m1 = touch(b1);
        if (b1 == b2) return m1;
        const bool m2 = touch(b2);
        return m1 || m2;
    }
    std::uint64_t misses = 0;

private:
    bool touch(std::uint64_t block) {
        std::uint64_t* set = &tags_[(block % sets_) * ways_];
        for (unsigned w = 0; w < ways_; ++w) {
            if (set[w] == block) {
                for (unsigned k = w; k > 0; --k) set[k] = set[k - 1];
                set[0] = block;
                return false;
            }
        }
        for (unsigned k = ways_ - 1; k > 0; --k) set[k] = set[k - 1];
        set[0] = block;
        return true;
    }
    unsigned sets_, ways_, line_;
    std::vector<std::uint64_t> tags_;
};

struct LoadPattern {
    std::vector<std::uint64_t> addresses;
    unsigned size = 4;
};

// Runs a load-only loop over the addresses and returns (model's replay-tagged L1 misses, reference misses).
std::pair<std::uint64_t, std::uint64_t> compare(const LoadPattern& p, unsigned model = kDefaultModel) {
    Harness h(EmulatedMachine{}.with_model(model));
    const CoreConfig& cfg = h.core().config();
    ReferenceCache ref(cfg.l1_size, cfg.l1_ways, cfg.l1_line);
    std::uint64_t ref_misses = 0;
    for (std::size_t i = 0; i < p.addresses.size(); ++i) {
        h.run(load(0x401000, p.addresses[i], p.size, reg_gpr(6), reg_gpr(0)));
        h.run(alu(0x401003, reg_gpr(6), reg_gpr(6) | kRegFlags));
        h.run(branch(0x401006, 0x401000, i + 1 != p.addresses.size()));
        if (ref.miss(p.addresses[i], p.size)) ++ref_misses;
    }
    EXPECT_TRUE(h.ok()) << h.problem();
    return {h.totals().causes[cause_index(kReplayL1LoadMiss)], ref_misses};
}

void expect_close(std::pair<std::uint64_t, std::uint64_t> r, const char* what) {
    const double model = static_cast<double>(r.first), ref = static_cast<double>(r.second);
    EXPECT_NEAR(model, ref, ref * 0.02 + 0.5) << what;
}

TEST(CoreCache, EightAddresses8KBApartThrashTheFourWayL1) {
    // Sprunt's l1_miss profile: eight lines 8 KB apart share one set of the 8 KB 4-way L1; LRU misses every time.
    LoadPattern p;
    for (int rep = 0; rep < 100; ++rep)
        for (std::uint64_t i = 0; i < 8; ++i) p.addresses.push_back(0x08049760 + i * 8192);
    const auto r = compare(p);
    EXPECT_EQ(r.first, 800u);
    EXPECT_EQ(r.second, 800u);
    // Four of them fit.
    LoadPattern q;
    for (int rep = 0; rep < 100; ++rep)
        for (std::uint64_t i = 0; i < 4; ++i) q.addresses.push_back(0x08049760 + i * 8192);
    EXPECT_EQ(compare(q).first, 4u);
    // On Prescott (16 KB, 8-way) the eight fit.
    EXPECT_EQ(compare(p, 3).first, 8u);
}

TEST(CoreCache, SequentialMatchesReferenceLru) {
    LoadPattern p;
    for (int rep = 0; rep < 3; ++rep)
        for (std::uint64_t a = 0; a < 64 * 1024; a += 4) p.addresses.push_back(0x10000000 + a);
    const auto r = compare(p);
    EXPECT_EQ(r.first, 3u * 1024u);  // one miss per 64-byte line, 16 KB > 8 KB so every pass misses
    expect_close(r, "sequential");
}

TEST(CoreCache, StridedMatchesReferenceLru) {
    for (std::uint64_t stride : {64u, 256u, 1024u, 4096u, 4160u}) {
        LoadPattern p;
        for (int rep = 0; rep < 4; ++rep)
            for (std::uint64_t i = 0; i < 300; ++i) p.addresses.push_back(0x20000000 + i * stride);
        expect_close(compare(p), "strided");
    }
}

TEST(CoreCache, RandomMatchesReferenceLru) {
    LoadPattern p;
    std::uint64_t x = 12345;
    for (int i = 0; i < 20000; ++i) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        p.addresses.push_back(0x30000000 + ((x >> 20) % (24 * 1024) & ~std::uint64_t{3}));
    }
    expect_close(compare(p), "random");
}

TEST(CoreCache, MisalignedLoadsCrossingLinesMatchReferenceLru) {
    // A load crossing a line touches two lines; it is tagged once, as the reference counts one miss per access.
    LoadPattern p;
    p.size = 8;
    for (int rep = 0; rep < 2; ++rep)
        for (std::uint64_t a = 0; a < 32 * 1024; a += 60) p.addresses.push_back(0x40000000 + a);
    expect_close(compare(p), "misaligned");
}

// The optimization manual's "data conflict" (64K aliasing): the Northwood L1 tells lines apart by linear address
// bits 15:6 only, Prescott's by bits 21:6. Two lines that agree in those bits cannot both be in the L1, so
// loading them in turn misses every time and each such miss counts memory_cancel 64K_CONF.
struct AliasRun {
    std::uint64_t misses, conflicts;
};
AliasRun alternate(std::uint64_t distance, unsigned model) {
    Harness h(EmulatedMachine{}.with_model(model));
    for (int rep = 0; rep < 100; ++rep)
        for (std::uint64_t k = 0; k < 2; ++k) {
            h.run(load(0x401000, 0x10000040 + k * distance, 4, reg_gpr(6), reg_gpr(0)));
            h.run(branch(0x401003, 0x401000, true));
        }
    EXPECT_TRUE(h.ok()) << h.problem();
    return {h.totals().causes[cause_index(kReplayL1LoadMiss)], h.totals().count(EventId::MemoryCancel, 3)};
}

TEST(CoreCache, LinesSixtyFourKilobytesApartAliasInTheNorthwoodL1) {
    const AliasRun k64 = alternate(64 * 1024, 2);
    EXPECT_EQ(k64.misses, 200u);
    EXPECT_EQ(k64.conflicts, 199u);  // every miss but the first: the second line finds the first in its place
    const AliasRun k128 = alternate(128 * 1024, 2);
    EXPECT_EQ(k128.misses, 200u);
    // 32 KB apart: the same set, different bits 15:11, so both lines stay.
    const AliasRun k32 = alternate(32 * 1024, 2);
    EXPECT_EQ(k32.misses, 2u);
    EXPECT_EQ(k32.conflicts, 0u);
}

TEST(CoreCache, PrescottAliasesAtFourMegabytes) {
    EXPECT_EQ(alternate(64 * 1024, 3).misses, 2u);
    EXPECT_EQ(alternate(1024 * 1024, 3).misses, 2u);
    const AliasRun m4 = alternate(4 * 1024 * 1024, 3);
    EXPECT_EQ(m4.misses, 200u);
    EXPECT_EQ(m4.conflicts, 199u);
}

TEST(CoreCache, L2HitsAndMissesAndTheBus) {
    Harness h;
    h.run(alu(0x401000, 0, 0));  // the code: built from the L2 (its own misses), then in the trace cache
    const Totals& t = h.totals();
    const Totals before = t;
    auto delta = [&](EventId e, unsigned bit) { return t.count(e, bit) - before.count(e, bit); };
    // First touch of a data line: L1 and L2 miss, a bus read of the sector pair.
    h.run(load(0x401003, 0x50000000, 4, 0, reg_gpr(0)));
    EXPECT_EQ(t.causes[cause_index(kReplayL1LoadMiss)], 1u);
    EXPECT_EQ(t.causes[cause_index(kReplayL2LoadMiss)], 1u);
    EXPECT_EQ(delta(EventId::BsqCacheReference, 8), 1u);  // RD_2ndL_MISS
    EXPECT_EQ(delta(EventId::IoqAllocation, 5), 1u);      // the demanded sector (ALL_READ)
    EXPECT_EQ(delta(EventId::IoqAllocation, 15), 1u);     // the adjacent sector (PREFETCH)
    EXPECT_EQ(delta(EventId::BsqAllocation, 9), 1u);      // REQ_DEM_TYPE
    EXPECT_GT(delta(EventId::FsbDataActivity, 1), 0u);    // DRDY_OWN cycles
    EXPECT_GT(delta(EventId::IoqActiveEntries, 5), 0u);
    // The adjacent sector came with it: a load there misses the L1 but hits the L2 (Exclusive).
    h.run(load(0x401007, 0x50000040, 4, 0, reg_gpr(1)));
    EXPECT_EQ(t.causes[cause_index(kReplayL1LoadMiss)], 2u);
    EXPECT_EQ(t.causes[cause_index(kReplayL2LoadMiss)], 1u);
    EXPECT_EQ(delta(EventId::BsqCacheReference, 1), 1u);  // RD_2ndL_HITE
    EXPECT_TRUE(h.ok()) << h.problem();
}

TEST(CoreCache, L2MissTakesMemoryLatency) {
    // A pointer chase through lines that miss everything: each load waits for memory.
    Harness h;
    const unsigned n = 50;
    for (unsigned i = 0; i < n; ++i)
        h.run(load(0x401000, 0x60000000 + std::uint64_t{i} * 4096 * 3, 4, reg_gpr(0), reg_gpr(0)));
    const CoreConfig& c = h.core().config();
    const double per_load = static_cast<double>(h.totals().last_retire) / n;
    const double memory = c.to_bus_cycles + c.memory_bus_clocks * c.bus_ratio;
    EXPECT_GT(per_load, memory);
    EXPECT_LT(per_load, memory * 1.6);
    EXPECT_TRUE(h.ok()) << h.problem();
}

TEST(CoreCache, L2HitLoadToUseIsTheMeasuredSixteenCycles) {
    // Dependent loads hitting the L2 only (lines 8 KB apart in one L1 set; the chain goes round 16 lines):
    // fill after 2 + 7 cycles, the load is dispatched again a 7-cycle replay loop less its 2-cycle latency
    // later, at 14, and has its data at 16, which is what AnandTech measured on Northwood.
    Harness h;
    for (int warm = 0; warm < 16; ++warm) h.run(load(0x401000, 0x70000000 + std::uint64_t(warm) * 8192, 4, 0, reg_gpr(1)));
    const Cycle start = h.totals().last_retire;
    const unsigned n = 160;
    for (unsigned i = 0; i < n; ++i)
        h.run(load(0x401000, 0x70000000 + std::uint64_t(i % 16) * 8192, 4, reg_gpr(0), reg_gpr(0)));
    const double per_load = static_cast<double>(h.totals().last_retire - start) / n;
    EXPECT_NEAR(per_load, 16.0, 1.5);
}

// Independent loads, one at the start of each 64-byte line of an L2-resident buffer 16 times the L1: X-bit labs
// measured a steady 32 bytes per clock from the L2 into the L1 on Northwood this way, the L2 delivering a line
// every other cycle. Each miss takes two load-port slots (the access and one pass after the fill), so the L2's
// rate is what limits, not the load port.
TEST(CoreCache, IndependentMissesStreamFromTheL2AtALineEveryOtherCycle) {
    Harness h;
    const std::uint64_t base = 0x10000000, bytes = 128 * 1024;
    std::uint64_t loads = 0;
    Cycle start = 0;
    for (int pass = 0; pass < 4; ++pass) {
        if (pass == 2) {  // the first passes bring the buffer into the L2
            start = h.totals().last_retire;
            loads = 0;
        }
        for (std::uint64_t a = 0; a < bytes; a += 64 * 16) {
            for (unsigned k = 0; k < 16; ++k, ++loads)
                h.run(load(0x401000 + 3 * k, base + a + 64 * k, 4, reg_gpr(6), reg_gpr(k & 3)));
            h.run(alu(0x401030, reg_gpr(6), reg_gpr(6) | kRegFlags));
            h.run(branch(0x401034, 0x401000, true));
        }
    }
    const double bytes_per_cycle = 64.0 * static_cast<double>(loads) / static_cast<double>(h.totals().last_retire - start);
    EXPECT_NEAR(bytes_per_cycle, 32.0, 2.0);
    EXPECT_EQ(h.totals().causes[cause_index(kReplayL1LoadMiss)], 4u * bytes / 64);  // every load missed the L1
}

// The same on Prescott: X-bit labs measured "about 1.5-2 times" less, and the L2 takes a request every 3.5 cycles.
TEST(CoreCache, PrescottStreamsFromTheL2AtALineEveryThreeAndAHalfCycles) {
    Harness h(EmulatedMachine{}.with_model(4));
    const std::uint64_t base = 0x10000000, bytes = 256 * 1024;
    std::uint64_t loads = 0;
    Cycle start = 0;
    for (int pass = 0; pass < 4; ++pass) {
        if (pass == 2) {
            start = h.totals().last_retire;
            loads = 0;
        }
        for (std::uint64_t a = 0; a < bytes; a += 64 * 16) {
            for (unsigned k = 0; k < 16; ++k, ++loads)
                h.run(load(0x401000 + 3 * k, base + a + 64 * k, 4, reg_gpr(6), reg_gpr(k & 3)));
            h.run(alu(0x401030, reg_gpr(6), reg_gpr(6) | kRegFlags));
            h.run(branch(0x401034, 0x401000, true));
        }
    }
    const double cycles_per_line = static_cast<double>(h.totals().last_retire - start) / static_cast<double>(loads);
    EXPECT_NEAR(cycles_per_line, 3.5, 0.2);
}

TEST(CoreCache, DtlbMissesWalkAndTagLoadsAndStores) {
    Harness h;
    for (unsigned i = 0; i < 100; ++i) h.run(load(0x401000, 0x80000000 + std::uint64_t{i} * 4096, 4, 0, reg_gpr(0)));
    EXPECT_EQ(h.totals().count(EventId::PageWalkType, 0), 100u);  // DTMISS
    EXPECT_EQ(h.totals().causes[cause_index(kReplayDtlbMiss)], 100u);
    for (unsigned i = 0; i < 100; ++i) h.run(store(0x401004, 0x90000000 + std::uint64_t{i} * 4096, 4, reg_gpr(0)));
    EXPECT_EQ(h.totals().count(EventId::PageWalkType, 0), 200u);
    EXPECT_EQ(h.totals().causes[cause_index(kReplayDtlbMiss)], 200u);
    // Pages already in the DTLB do not walk.
    for (unsigned i = 90; i < 100; ++i) h.run(store(0x401004, 0x90000000 + std::uint64_t{i} * 4096, 4, reg_gpr(0)));
    EXPECT_EQ(h.totals().count(EventId::PageWalkType, 0), 200u);
}

TEST(CoreCache, StoresMakeL2LinesModified) {
    Harness h;
    h.run(alu(0x401000, 0, 0));  // the code line
    h.run(store(0x401003, 0xA0000000, 4, 0));           // write miss in the L2: RFO
    EXPECT_EQ(h.totals().count(EventId::BsqCacheReference, 10), 1u);  // WR_2ndL_MISS
    EXPECT_EQ(h.totals().count(EventId::BsqAllocation, 0), 1u);       // REQ_TYPE0 (read for ownership)
    h.run(load(0x401007, 0xA0000000, 4, 0, reg_gpr(0)));  // no write-allocate in the L1: misses it, hits M in L2
    EXPECT_EQ(h.totals().count(EventId::BsqCacheReference, 2), 1u);   // RD_2ndL_HITM
    EXPECT_TRUE(h.ok()) << h.problem();
}

}  // namespace
}  // namespace netburst::emu::test
