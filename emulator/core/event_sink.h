// Where the model's event-detector outputs go. Records are written into the Outcome being built; when it is
// full (an instruction with several bus transactions can produce more intervals than an Outcome holds) they wait
// in a per-thread queue and go out with that logical processor's next Outcomes. The core keeps the frontier at
// or below the oldest waiting record, so nothing is ever dropped or delivered behind the frontier, and
// Outcome::overflowed stays false.
//
// Records belong to a logical processor (the Outcome's thread decides T0/T1 qualification), which is why the
// queue is per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "emulator/core/ticks.h"
#include "emulator/model/outcome.h"

namespace netburst::emu {

class PendingRecords {
public:
    // Bursts of bus activity (every instruction missing the L2 twice and writing lines back) can produce more
    // intervals than an Outcome holds for hundreds of instructions in a row; the queue absorbs that. Only a
    // sustained excess longer than this would lose records (counted in DetailStats::records_dropped).
    static constexpr unsigned kCapacity = 2048;

    void reset() {
        head_ = tail_ = 0;
        dropped_ = deferred_ = 0;
    }
    bool empty() const { return head_ == tail_; }
    unsigned size() const { return tail_ - head_; }

    void push_event(const EventRecord& e) {
        ++deferred_;
        Item& it = push();
        it.is_interval = false;
        it.event = e;
    }
    void push_interval(const IntervalRecord& r) {
        ++deferred_;
        Item& it = push();
        it.is_interval = true;
        it.interval = r;
    }

    // Moves as many waiting records into `out` as fit.
    void drain(Outcome* out) {
        while (head_ != tail_) {
            Item& it = items_[head_ % kCapacity];
            if (it.is_interval) {
                if (out->num_intervals == Outcome::kMaxIntervals) return;
                out->intervals[out->num_intervals++] = it.interval;
            } else {
                if (out->num_events == Outcome::kMaxEvents) return;
                out->events[out->num_events++] = it.event;
            }
            ++head_;
        }
    }

    // The earliest cycle a waiting record starts at (or `none` when empty).
    Cycle earliest(Cycle none) const {
        Cycle m = none;
        for (unsigned i = head_; i != tail_; ++i) {
            const Item& it = items_[i % kCapacity];
            const Cycle c = it.is_interval ? it.interval.begin : it.event.cycle;
            if (c < m) m = c;
        }
        return m;
    }

    std::uint64_t dropped() const { return dropped_; }
    std::uint64_t deferred() const { return deferred_; }

private:
    struct Item {
        bool is_interval;
        EventRecord event;
        IntervalRecord interval;
    };
    Item& push() {
        if (tail_ - head_ == kCapacity) {
            // Never seen in practice; keep the newest and say so in the statistics.
            ++head_;
            ++dropped_;
        }
        return items_[tail_++ % kCapacity];
    }

    Item items_[kCapacity];
    unsigned head_ = 0, tail_ = 0;
    std::uint64_t dropped_ = 0;
    std::uint64_t deferred_ = 0;
};

// A whole uop record written with four word stores. Field by field, each byte store (bool, uint8_t, enum
// fields) may alias any object, and the compiler reloads every value it held after each one; on the hot path
// that doubled the cost of an instruction. Relies on UopRecord's layout (checked here) and on little-endian
// order (the emulator runs on x86).
inline void write_uop(UopRecord* u, Cycle retire, UopKind kind, bool bogus, bool last, bool has_exec, EventId event,
                      unsigned exec_bit, Cycle exec_cycle, unsigned causes, unsigned mob) {
    static_assert(offsetof(UopRecord, kind) == 8 && offsetof(UopRecord, bogus) == 9 &&
                      offsetof(UopRecord, last_of_instruction) == 10 && offsetof(UopRecord, has_exec_event) == 11 &&
                      offsetof(UopRecord, exec_event) == 12 && offsetof(UopRecord, exec_mask_bit) == 13 &&
                      offsetof(UopRecord, exec_cycle) == 16 && offsetof(UopRecord, replay_causes) == 24 &&
                      offsetof(UopRecord, mob_mask) == 26 && sizeof(UopRecord) == 32,
                  "UopRecord layout changed: update write_uop");
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "write_uop assumes little-endian");
    const std::uint64_t flags = static_cast<std::uint64_t>(kind) | static_cast<std::uint64_t>(bogus) << 8 |
                                static_cast<std::uint64_t>(last) << 16 | static_cast<std::uint64_t>(has_exec) << 24 |
                                static_cast<std::uint64_t>(event) << 32 | static_cast<std::uint64_t>(exec_bit & 255) << 40;
    const std::uint32_t tail = (causes & 0xFFFFu) | (mob & 0xFFFFu) << 16;
    unsigned char* p = reinterpret_cast<unsigned char*>(u);
    std::memcpy(p, &retire, 8);
    std::memcpy(p + 8, &flags, 8);
    std::memcpy(p + 16, &exec_cycle, 8);
    std::memcpy(p + 24, &tail, 4);
}

class EventSink {
public:
    // The timing tier's sink (FunctionalSink is the functional tier's): code shared by both tiers is a template
    // over the sink and computes times only when kTiming.
    static constexpr bool kTiming = true;

    void bind(Outcome* out, PendingRecords* pending) {
        out_ = out;
        pending_ = pending;
    }
    Outcome* outcome() const { return out_; }

    // Records are written field by field into place (a temporary copied as a whole would be read back right
    // after its byte fields were stored: a store-forwarding stall on every record).
    void event(Cycle cycle, EventId event, unsigned mask_bit, std::uint64_t count = 1) {
        while (count != 0) {
            const unsigned n = count > 255 ? 255 : static_cast<unsigned>(count);
            EventRecord spill;
            EventRecord* r = place(out_->events, out_->num_events, Outcome::kMaxEvents, &spill);
            r->cycle = cycle;
            r->event = event;
            r->mask_bit = static_cast<std::uint8_t>(mask_bit);
            r->count = static_cast<std::uint8_t>(n);
            if (r == &spill) pending_->push_event(spill);
            count -= n;
        }
    }

    void interval(Cycle begin, Cycle end, EventId event, unsigned mask_bit, unsigned per_cycle = 1) {
        if (end <= begin || per_cycle == 0) return;
        if ((out_->num_intervals == Outcome::kMaxIntervals || !pending_->empty()) && occupancy(event)) {
            // No room: a bus-occupancy interval goes out as its total at its first cycle. Totals stay exact;
            // only a counter comparing per-cycle values against a threshold would see the difference. This is
            // what keeps the waiting queue bounded when every instruction misses the L2.
            ++summarised_;
            this->event(begin, event, mask_bit, (end - begin) * per_cycle);
            return;
        }
        IntervalRecord spill;
        IntervalRecord* r = place(out_->intervals, out_->num_intervals, Outcome::kMaxIntervals, &spill);
        r->begin = begin;
        r->end = end;
        r->event = event;
        r->mask_bit = static_cast<std::uint8_t>(mask_bit);
        r->per_cycle = static_cast<std::uint8_t>(per_cycle > 15 ? 15 : per_cycle);
        if (r == &spill) pending_->push_interval(spill);
    }

    // The next uop record, not initialised (write it with write_uop), or nullptr when the Outcome is full.
    UopRecord* raw_uop() {
        if (out_->num_uops == Outcome::kMaxUops) {
            out_->overflowed = true;
            return nullptr;
        }
        return &out_->uops[out_->num_uops++];
    }

    std::uint64_t summarised() const { return summarised_; }

    // A new uop record with every field set (Outcome::add_uop builds a temporary; see above).
    UopRecord* uop() {
        if (out_->num_uops == Outcome::kMaxUops) {
            out_->overflowed = true;
            return nullptr;
        }
        UopRecord* u = &out_->uops[out_->num_uops++];
        u->retire = 0;
        u->kind = UopKind::Other;
        u->bogus = false;
        u->last_of_instruction = false;
        u->has_exec_event = false;
        u->exec_event = EventId::X87FpUop;
        u->exec_mask_bit = 0;
        u->exec_cycle = 0;
        u->replay_causes = 0;
        u->mob_mask = 0;
        return u;
    }

private:
    // Where the next record goes: the Outcome while it has room and nothing waits before it (records stay in
    // order), else `spill`, which the caller queues.
    template <class Record>
    Record* place(Record* array, unsigned& count, unsigned capacity, Record* spill) {
        if (count < capacity && pending_->empty()) return &array[count++];
        return spill;
    }

    static bool occupancy(EventId e) {
        return e == EventId::IoqActiveEntries || e == EventId::BsqActiveEntries || e == EventId::FsbDataActivity;
    }

    Outcome* out_ = nullptr;
    PendingRecords* pending_ = nullptr;
    std::uint64_t summarised_ = 0;
};

}  // namespace netburst::emu
