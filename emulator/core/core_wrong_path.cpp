// Wrong-path (bogus) uops. After a mispredicted branch the front end keeps delivering from the predicted path
// until the branch resolves and the redirect reaches it. Those uops are allocated, some execute, and they pass
// through retirement marked bogus, where they are discarded; uops_retired:BOGUS, instr_retired:BOGUS* and the
// BOGUS masks of the tagging events count them.
//
// How many: the delivery rate times the cycles from the branch's delivery to its resolution (half the rate when
// the other logical processor shares the front end), bounded by the thread's ROB share and by the room left in
// the Outcome.
//
// What they are: we do not know the instructions of the predicted path, so the bogus uops copy the shapes (kind,
// execution event, instruction boundaries) of the thread's most recent correct-path uops; in loop code the
// predicted path usually is that code. They never access memory (their addresses are unknown), so they cause no
// cache, TLB or replay events, and they carry no replay causes. A bogus uop carries an execution event only if it
// would have reached execution before the branch resolved; such uops are also counted by the FIRM uop events,
// which count speculative uops.
#include "emulator/core/core.h"

namespace netburst::emu {

namespace {
constexpr unsigned kFromDeliver = 1;  // uop_queue_writes
}

void Core::wrong_path(Thread& th, unsigned t, Cycle branch_deliver, Cycle resolve, Cycle branch_retire,
                      unsigned rob_limit, unsigned room, EventSink* sink) {
    const bool shared = smt_shared();
    const Cycle first = branch_deliver + 1;
    if (resolve <= first) return;
    std::uint64_t n = (resolve - first) * cfg_.deliver_width;
    if (shared) n /= 2;
    const std::uint64_t wanted = n;
    if (n > rob_limit - 1) n = rob_limit - 1;
    if (n > room) n = room;
    if (n < wanted) th.detail.bogus_uops_capped += wanted - n;
    if (n == 0) return;

    // The uops of the latest correct-path instructions, oldest first, repeated as needed. Each instruction's
    // records are copied in order (flows count as their recorded uops), so instruction boundaries carry over.
    const unsigned have = th.recent_count;
    const unsigned first_plan = (th.recent_pos + 16 - have) & 15;
    const unsigned width = shared ? 1 : cfg_.deliver_width;
    const unsigned cap = cfg_.rom_record_cap;
    Cycle retire_floor = branch_retire;
    unsigned plan_index = 0, spec_index = 0, repeat = 0;
    const Cycle exec_delay = cfg_.fetch_to_alloc + cfg_.alloc_to_exec;
    Cycle last_retire = th.last_retire;
    for (std::uint64_t j = 0; j < n; ++j) {
        UopRecord* rec = sink->raw_uop();
        if (rec == nullptr) break;
        UopKind kind = UopKind::Other;
        bool last = true, has_exec = false;
        EventId exec_event = EventId::X87FpUop;
        unsigned exec_bit = 0;
        if (have != 0) {
            const UopPlan& p = *th.recent[(first_plan + plan_index) & 15];
            const UopSpec& s = p.specs[spec_index];
            kind = s.kind;
            has_exec = s.has_exec_event;
            exec_event = s.exec_event;
            exec_bit = s.exec_bit;
            // Next uop of the pattern.
            const std::uint32_t copies = s.count > cap ? cap : s.count;
            last = false;
            if (++repeat >= copies) {
                repeat = 0;
                if (++spec_index >= p.num_specs) {
                    spec_index = 0;
                    last = true;
                    if (++plan_index == have) plan_index = 0;
                }
            }
        }
        const Cycle exec = first + j / width + exec_delay;
        has_exec = has_exec && exec < resolve;
        // Discarded at retirement, behind the branch, at the retirement rate.
        const Cycle floor = max_cycle(retire_floor, last_retire);
        last_retire = shared ? retire_bw_.take(t, floor, true) : retire_bw_.take_own(t, floor);
        retire_floor = last_retire;
        write_uop(rec, last_retire, kind, true, last || j + 1 == n, has_exec, exec_event, exec_bit,
                  has_exec ? exec : 0, 0, 0);
        if (has_exec) sink->event(exec, exec_event, exec_bit);
    }
    th.last_retire = last_retire;
    // They were written into the uop queue like any delivered uop.
    const std::uint64_t full = n / width;
    sink->interval(first, first + full, EventId::UopQueueWrites, kFromDeliver, width);
    if (n % width != 0) sink->event(first + full, EventId::UopQueueWrites, kFromDeliver, n % width);
    th.stats.bogus_uops += n;
}

}  // namespace netburst::emu
