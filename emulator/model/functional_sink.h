// What the core's functional tier counts (Core::execute_functional) and the PMU takes (Pmu::absorb): occurrence
// counts instead of Outcome records, because the functional tier has no cycles to put on records and the PMU,
// while no counter needs cycles, only ever adds them up. Like outcome.h, the contract between the two models.
//
//  - events: occurrences per (event, mask bit, qualifier), the qualifier being logical processor x privilege
//    (qualifier.h's index: thread * 2 + (cpl == 0)), exactly as the timing tier's records of the same instruction
//    would have been qualified by their Outcome;
//  - retired non-bogus uops per *signature*: the fields of a UopRecord that the PMU's tagging reads (kind,
//    execution event and mask bit, replay causes, MOB/split mask bits), per qualifier. The PMU evaluates its tag
//    functions once per signature instead of once per uop;
//  - retired non-bogus instructions per set of uop kinds they contain (a Load uop: bit 0, a Store uop: bit 1), per
//    qualifier: instr_retired's TAG/NTAG split is "any of its uops carries a front-end tag", and front-end tags
//    depend only on a uop's kind.
//
// The sink also offers EventSink's event()/interval() interface, so that the code both tiers share (caches, bus,
// TLB and predictor bookkeeping) emits into either: a functional event adds to its count and its cycle is
// ignored; intervals always count cycles, so they are dropped here. Only functional (event, mask bit) pairs are
// ever counted (model/coverage.h, timing_dependent()).
//
// The emulator hands the counts to the PMU at each MSR access (Pmu::absorb) and clears them. Signatures are kept:
// the core's uop plans remember their signatures' indices. A uop that can meet replay causes gets a block of
// signatures, one per set of causes, made together (intern_caused), so that the core finds the signature of a
// missing load by an addition.
//
// Freestanding: fixed-size arrays, no allocation. About 250 KB.
#pragma once

#include <cstdint>
#include <cstring>

#include "emulator/model/outcome.h"
#include "table/events.h"

namespace netburst::emu {

// The fields of a retired non-bogus uop that tagging reads (UopRecord without its cycles and flags).
struct UopSignature {
    UopKind kind = UopKind::Other;
    bool has_exec_event = false;
    EventId exec_event = EventId::X87FpUop;
    std::uint8_t exec_mask_bit = 0;
    std::uint16_t replay_causes = 0;
    std::uint16_t mob_mask = 0;

    // All fields in one word (the hash key).
    std::uint64_t key() const {
        return static_cast<std::uint64_t>(kind) | static_cast<std::uint64_t>(has_exec_event) << 2 |
               (has_exec_event ? static_cast<std::uint64_t>(exec_event) << 3 | std::uint64_t{exec_mask_bit} << 11 : 0) |
               std::uint64_t{replay_causes} << 16 | std::uint64_t{mob_mask} << 32;
    }
};

class FunctionalSink {
public:
    static constexpr bool kTiming = false;
    static constexpr unsigned kQualifiers = 4;
    // Enough for every signature the functional tier can produce, so the table never fills: 4 uop kinds x 10
    // execution events and mask bits a decomposition gives (none, x87_SIMD_moves_uop ALLP0/ALLP2, x87_FP_uop and
    // the six SIMD uop events' ALL) = 40 signatures without replay causes, and at most one block of
    // kCausedBlock + 1 (intern_caused) for each: 1360.
    static constexpr unsigned kMaxSignatures = 4096;
    // No signature index: the table is full (not expected, see above; the emulator then runs the timing tier).
    static constexpr std::uint16_t kNoSignature = 0xFFFF;
    // What signing one plan can add at most (8 specs, each with a signature and a block): the emulator leaves the
    // functional tier before fewer remain (nearly_full()).
    static constexpr unsigned kSignatureReserve = 8 * (1 + 32 + 1);

    // Everything, signatures included (their indices are handed out afresh).
    void reset() {
        clear_counts();
        num_signatures_ = 0;
        std::memset(slots_, 0, sizeof slots_);
        generation_ = ++generations_;
        begin(0, 3);
    }
    // The counts only, after the PMU took them.
    void clear_counts() {
        for (Counts& c : counts_) {
            std::memset(c.events, 0, sizeof c.events);
            std::memset(c.instructions, 0, sizeof c.instructions);
            std::memset(c.uops, 0, num_signatures_ * sizeof(std::uint64_t));
        }
        counted_ = false;
    }
    // Anything counted since the last clear_counts().
    bool counted() const { return counted_; }

    // The instruction about to be counted: its logical processor and privilege qualify everything it adds.
    void begin(unsigned thread, unsigned cpl) { select((thread & 1u) * 2u + (cpl == 0 ? 1u : 0u)); }
    // begin() by qualifier index.
    void select(unsigned q) {
        current_ = &counts_[q];
        counted_ = true;
    }

    // EventSink's interface (see above).
    void event(Cycle, EventId event, unsigned mask_bit, std::uint64_t count = 1) { add(event, mask_bit, count); }
    void interval(Cycle, Cycle, EventId, unsigned, unsigned = 1) {}
    void add(EventId event, unsigned mask_bit, std::uint64_t count) {
        current_->events[static_cast<unsigned>(event) * 16u + (mask_bit & 15u)] += count;
    }

    // Retirement of the current instruction's non-bogus uops and of the instruction itself.
    void retire_uops(std::uint16_t signature, std::uint64_t count) { current_->uops[signature] += count; }
    void retire_instructions(unsigned kinds, std::uint64_t count) { current_->instructions[kinds & 3u] += count; }

    // The index of a signature, added if new; kNoSignature when the table is full.
    std::uint16_t intern(const UopSignature& s) {
        const std::uint16_t found = find(s.key());
        if (found != kNoSignature) return found;
        if (num_signatures_ == kMaxSignatures) return kNoSignature;
        return add(s, s.key());
    }
    // The replay causes the functional tier meets, as an index in a block (0-31): L1 and L2 load misses, DTLB
    // miss and mispredicted branch in bits 0-3, split access in bit 4. MOB replays depend on timing and never
    // occur here; a split is the only thing that sets a MOB mask bit (load_port_replay / store_port_replay
    // SPLIT, bit 1), so the causes fix the mask.
    static constexpr unsigned kCausedBlock = 32;
    static unsigned caused_index(std::uint16_t causes) {
        static_assert(kReplaySplit == 0x20u, "the split cause moves down one bit to bit 4");
        return (causes & 0xFu) | ((causes >> 1) & 0x10u);
    }
    // The first of 32 consecutive signatures: `s` with each set of replay causes in caused_index() order (and
    // the matching split mask bit), made on first use; kNoSignature when the table is full.
    std::uint16_t intern_caused(const UopSignature& s) {
        UopSignature block_key = s;
        block_key.replay_causes = 0xFFFF;  // no real signature has every cause: a key of its own for the block
        const std::uint64_t marker_key = block_key.key();
        const std::uint16_t found = find(marker_key);
        if (found != kNoSignature) return signatures_[found].mob_mask;  // the block's first index, kept here
        if (num_signatures_ + kCausedBlock + 1 > kMaxSignatures) return kNoSignature;
        const std::uint16_t base = static_cast<std::uint16_t>(num_signatures_);
        for (unsigned c = 0; c < kCausedBlock; ++c) {
            UopSignature v = s;
            v.replay_causes = static_cast<std::uint16_t>((c & 0xFu) | ((c & 0x10u) ? static_cast<unsigned>(kReplaySplit) : 0u));
            v.mob_mask = static_cast<std::uint16_t>((c & 0x10u) ? 2u : 0u);
            add(v, v.key() | std::uint64_t{1} << 63);  // not found by intern(): the block owns them
        }
        // The block's marker: found by the key above, it keeps the block's first index; not a retired uop's
        // signature, it never counts anything.
        block_key.mob_mask = base;
        add(block_key, marker_key);  // the key without the index, as find() looks for it
        return base;
    }
    bool nearly_full() const { return num_signatures_ + kSignatureReserve > kMaxSignatures; }
    // Names this sink's current set of signature indices, unique among all sinks and resets: the core's plans keep
    // the indices of their uops' signatures together with it, and recompute them when it differs.
    std::uint64_t generation() const { return generation_; }

    // The PMU's view.
    std::uint64_t events(unsigned q, EventId event, unsigned mask_bit) const {
        return counts_[q].events[static_cast<unsigned>(event) * 16u + mask_bit];
    }
    unsigned num_signatures() const { return num_signatures_; }
    const UopSignature& signature(unsigned index) const { return signatures_[index]; }
    std::uint64_t uops(unsigned q, unsigned signature) const { return counts_[q].uops[signature]; }
    std::uint64_t instructions(unsigned q, unsigned kinds) const { return counts_[q].instructions[kinds]; }

private:
    static constexpr unsigned kSlots = 2 * kMaxSignatures;
    static unsigned slot_of(std::uint64_t key) {
        return static_cast<unsigned>((key * 0x9E3779B97F4A7C15ull) >> 52) & (kSlots - 1);
    }
    std::uint16_t find(std::uint64_t key) const {
        for (unsigned h = slot_of(key);; h = (h + 1) & (kSlots - 1)) {
            const std::uint16_t slot = slots_[h];
            if (slot == 0) return kNoSignature;
            if (keys_[slot - 1] == key) return static_cast<std::uint16_t>(slot - 1);
        }
    }
    std::uint16_t add(const UopSignature& s, std::uint64_t key) {
        const unsigned index = num_signatures_++;
        signatures_[index] = s;
        keys_[index] = key;
        for (Counts& c : counts_) c.uops[index] = 0;
        unsigned h = slot_of(key);
        while (slots_[h] != 0) h = (h + 1) & (kSlots - 1);
        slots_[h] = static_cast<std::uint16_t>(index + 1);
        return static_cast<std::uint16_t>(index);
    }
    static_assert(kSlots <= 0xFFFF, "slots hold signature indices + 1 in 16 bits");

    // What one qualifier (logical processor x privilege) counted.
    struct Counts {
        std::uint64_t instructions[4];
        std::uint64_t events[kNumEvents * 16];
        std::uint64_t uops[kMaxSignatures];
    };
    Counts counts_[kQualifiers];
    UopSignature signatures_[kMaxSignatures];
    std::uint64_t keys_[kMaxSignatures];
    std::uint16_t slots_[kSlots];  // open addressing over keys: signature index + 1, 0 when empty
    unsigned num_signatures_ = 0;
    std::uint64_t generation_ = 0;
    static inline std::uint64_t generations_ = 0;  // constant-initialised: no static constructor
    Counts* current_ = &counts_[0];
    bool counted_ = false;
};

}  // namespace netburst::emu
