// The execution trace cache: 12K uops in lines of six (Tom's Hardware, "Intel's New Pentium 4 Processor": six
// uops every two clocks), 8-way set associative (Intel, IA-32 Optimization Reference Manual, Table 1-1).
//
// A trace line is keyed by the address of its first instruction and holds the uops of the instructions that
// followed it dynamically when it was built, across taken branches, until six uop slots are used. A line records
// the low address bits of each of its instructions so that delivery can tell when the program leaves the
// recorded path. Delivery walks a line instruction by instruction; at the end of a line, or when the path
// diverges, the next instruction must start a line of its own or the trace cache misses.
//
// On a miss the front end builds: decoded instructions are appended to the line being built, or start a new line
// (replacing the set's least recently used line) when the current one is full. Building stops as soon as an
// instruction is found at the head of an existing line. Instructions delivered from the microcode ROM occupy one
// slot (the pointer into the ROM). Entries are tagged with the logical processor (ITJ 2002 Hyper-Threading
// paper), which the caller folds into the address.
#pragma once

#include <cstdint>
#include <cstring>

namespace netburst::emu {

class TraceCache {
public:
    static constexpr unsigned kMaxLines = 2048;
    static constexpr unsigned kMaxWays = 8;
    static constexpr unsigned kLineSlots = 6;

    void reset(unsigned lines, unsigned ways);

    struct Access {
        bool hit;         // delivered from the trace cache
        bool line_start;  // a hit that started a new line (a trace-cache lookup by address)
    };
    // The instruction at `tagged_pc` (address with the thread tag folded in) needing `slots` uop slots, on
    // logical processor `thread`.
    Access access(unsigned thread, std::uint64_t tagged_pc, unsigned slots) {
        // The common case, inline: the next instruction of the line being delivered.
        Cursor& c = cursor_[thread];
        if (c.line >= 0) {
            const Line& l = lines_[c.line];
            if (c.pos < l.insns && l.pc_low[c.pos] == static_cast<std::uint16_t>(tagged_pc)) {
                ++c.pos;
                return Access{true, false};
            }
        }
        return access_slow(thread, tagged_pc, slots);
    }

    // The commonest hit, alone: the instruction is the next one of the line being delivered. Then it is delivered
    // exactly as access() would and true is returned; otherwise nothing changes.
    bool deliver_next(unsigned thread, std::uint64_t tagged_pc) {
        Cursor& c = cursor_[thread];
        if (c.line < 0) return false;
        const Line& l = lines_[c.line];
        if (c.pos >= l.insns || l.pc_low[c.pos] != static_cast<std::uint16_t>(tagged_pc)) return false;
        ++c.pos;
        return true;
    }

    // deliver_next() for the next instructions in turn (the low 16 bits of their addresses; readable four entries
    // past n), as long as it succeeds: returns how many were delivered. Compares four addresses at a time.
    unsigned deliver_run(unsigned thread, const std::uint16_t* pc_low, unsigned n) {
        Cursor& c = cursor_[thread];
        if (c.line < 0) return 0;
        const Line& l = lines_[c.line];
        const unsigned room = l.insns - c.pos;  // delivery never passes the end of the line
        const unsigned limit = n < room ? n : room;
        unsigned k = 0;
        while (k < limit) {
            std::uint64_t line_word, run_word;
            std::memcpy(&line_word, l.pc_low + c.pos + k, sizeof line_word);
            std::memcpy(&run_word, pc_low + k, sizeof run_word);
            const std::uint64_t differ = line_word ^ run_word;
            if (differ != 0) {
                k += static_cast<unsigned>(__builtin_ctzll(differ)) / 16;
                break;
            }
            k += 4;
        }
        if (k > limit) k = limit;
        c.pos += k;
        return k;
    }

    // The next commonest: delivery just left a line, and the instruction heads the line that followed that one last
    // time (locate()'s hint). Then it is delivered exactly as access() would and true is returned; otherwise
    // nothing changes.
    bool deliver_head(unsigned thread, std::uint64_t tagged_pc) {
        Cursor& c = cursor_[thread];
        if (c.line < 0) return false;
        const int next = lines_[c.line].next;
        if (next < 0 || lines_[next].tag != tagged_pc) return false;
        enter_line(c, next, tagged_pc);
        return true;
    }

    // The single shapes' question (core_walker.h): does the instruction hit (the next one of the line being delivered, or the head
    // of a line)? On a hit it is delivered exactly as access() would and true is returned; on a miss nothing
    // changes and the caller goes through access().
    bool deliver_if_hit(unsigned thread, std::uint64_t tagged_pc) {
        Cursor& c = cursor_[thread];
        if (c.line >= 0) {
            const Line& l = lines_[c.line];
            if (c.pos < l.insns && l.pc_low[c.pos] == static_cast<std::uint16_t>(tagged_pc)) {
                ++c.pos;
                return true;
            }
        }
        const int hit = locate(c, tagged_pc);
        if (hit < 0) return false;
        enter_line(c, hit, tagged_pc);
        return true;
    }

    // What delivering a run of instructions (one after the other, every one a hit: deliver_run and deliver_head,
    // never access()) did to logical processor `thread`'s cursor and the lines' LRU order, so that the next time
    // the run starts from the same place it can be delivered again in one step (replay). Delivery reads only the
    // lines' contents (tags, addresses, the next-line hints) and the cursor, so from the same cursor, with no line
    // changed since (the same epoch()), it does exactly the same again: the same lines made most recently used in
    // the same order, the cursor left in the same place.
    struct RunMemo {
        static constexpr unsigned kMaxHeads = 16;
        std::uint64_t epoch = 0;  // epoch() when recorded; 0: nothing recorded (epochs start at 1)
        std::uint64_t entry = 0;  // place(): the cursor's line and position before, and the logical processor
        std::uint64_t exit = 0;   // the same after
        std::uint64_t exit_tag = 0;
        unsigned num_heads = 0;
        std::uint64_t* stamps[kMaxHeads] = {};  // the LRU stamps of the lines delivery entered by their head, in order
        // The LRU clock right after the run's last delivery (recorded or replayed): while it has not moved since,
        // the heads are still the most recent lines in that order, and stamping them again changes no order.
        mutable std::uint64_t clock_after = 0;
    };
    // Changes with every change to a line's contents or hint (and at a flush): a memo recorded in another epoch is
    // stale.
    std::uint64_t epoch() const { return epoch_; }
    // Recording: where the cursor is before the run (begin_memo), each line entered by its head (deliver_head
    // returned true: note_head), where it is after (end_memo). The caller records only a run whose every
    // instruction was delivered by deliver_run or deliver_head, within one epoch.
    void begin_memo(unsigned thread, RunMemo* m) const {
        m->epoch = 0;
        m->num_heads = 0;
        m->entry = place(thread);
    }
    void note_head(unsigned thread, RunMemo* m) {
        if (m->num_heads < RunMemo::kMaxHeads) m->stamps[m->num_heads] = &lines_[cursor_[thread].line].stamp;
        ++m->num_heads;
    }
    void end_memo(unsigned thread, std::uint64_t epoch_at_begin, RunMemo* m) const {
        if (epoch_ != epoch_at_begin || static_cast<int>(m->entry) < 0 || m->num_heads > RunMemo::kMaxHeads) return;
        m->exit = place(thread);
        m->exit_tag = cursor_[thread].tag;
        m->epoch = epoch_;
        m->clock_after = clock_;
    }
    // Delivers the run again if its memo applies (same epoch, logical processor and starting place): true. Else
    // nothing changes.
    bool replay(unsigned thread, const RunMemo& m) {
        if (m.epoch != epoch_ || place(thread) != m.entry) return false;
        // LRU order is all the stamps say (the least recently used line of a set has the smallest), so when no
        // line was stamped since this run's last delivery its heads keep their stamps.
        if (clock_ != m.clock_after) {
            std::uint64_t clock = clock_;
            for (unsigned h = 0; h < m.num_heads; ++h) *m.stamps[h] = ++clock;
            clock_ = clock;
            m.clock_after = clock;
        }
        Cursor& c = cursor_[thread];
        if (m.num_heads != 0) {
            c.tag = m.exit_tag;
            c.build = -1;
        }
        c.line = static_cast<int>(static_cast<std::uint32_t>(m.exit));
        c.pos = static_cast<unsigned>(m.exit >> 32) & 0x7FFFFFFFu;
        return true;
    }

    // Empties the cache (a flush).
    void flush();

    // For tests: does a line start at this address?
    bool holds_line(std::uint64_t tagged_pc) const;

private:
    struct Line {
        std::uint64_t tag;  // address of the first instruction; kEmpty when unused
        std::uint64_t stamp;
        std::uint16_t pc_low[kLineSlots + 3];  // padded for deliver_run's four-at-a-time reads
        std::uint8_t insns;
        std::uint8_t slots;
        std::int16_t next;  // the line found right after delivery left this one last time (a hint), or -1
    };
    struct Cursor {
        int line = -1;          // line being delivered from (-1 when the line is replaced: see access_slow)
        unsigned pos = 0;       // next instruction within it
        std::uint64_t tag = 0;  // its tag
        int build = -1;         // line being built
        std::uint64_t build_tag = 0;
    };
    // A cursor's line and position in one word, with the logical processor in the top bit (RunMemo).
    std::uint64_t place(unsigned thread) const {
        const Cursor& c = cursor_[thread];
        return static_cast<std::uint32_t>(c.line) | static_cast<std::uint64_t>(c.pos) << 32 |
               static_cast<std::uint64_t>(thread) << 63;
    }
    static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};

    unsigned set_of(std::uint64_t tagged_pc) const {
        return static_cast<unsigned>((tagged_pc ^ (tagged_pc >> 11) ^ (tagged_pc >> 23)) & (sets_ - 1));
    }
    int find(std::uint64_t tagged_pc) const;
    // find() for the next line after the cursor's: the line that followed last time usually follows again (loops),
    // so it is checked first. Tags are unique, so the answer is find()'s; the hint only saves the set scan.
    int locate(Cursor& c, std::uint64_t tagged_pc) {
        const int prev = c.line;
        if (prev >= 0) {
            const int next = lines_[prev].next;
            if (next >= 0 && lines_[next].tag == tagged_pc) return next;
        }
        const int hit = find(tagged_pc);
        if (prev >= 0 && hit >= 0 && lines_[prev].next != hit) {
            lines_[prev].next = static_cast<std::int16_t>(hit);
            ++epoch_;
        }
        return hit;
    }
    Access access_slow(unsigned thread, std::uint64_t tagged_pc, unsigned slots);
    // Delivery enters line `line` at its first instruction: the line becomes the set's most recently used.
    void enter_line(Cursor& c, int line, std::uint64_t tagged_pc) {
        lines_[line].stamp = ++clock_;
        c.line = line;
        c.tag = tagged_pc;
        c.pos = 1;
        c.build = -1;
    }

    unsigned sets_ = 256, ways_ = 8;
    std::uint64_t clock_ = 0;
    std::uint64_t epoch_ = 1;
    Cursor cursor_[2];
    Line lines_[kMaxLines];
};

}  // namespace netburst::emu
