// The call stack of a guest thread, kept from the instructions it runs: a shadow call stack, not an unwind of the
// program's own stack (no frame pointers, no DWARF). `netburst-run record -g` takes each sample's call chain from
// it (the return addresses), and `record --callgrind` its call edges with their inclusive costs (each frame's call
// site, callee and the thread's costs when the call was made).
//
// Rules:
// - A call (InsnClass::DirectCall, IndirectCall) pushes a frame: its return address, pc + length.
// - A return pops when its target is the top entry. A return to an address deeper in the stack pops down to it
//   (longjmp, an exception's unwind, a tail call's frame that returns past its caller); a return to an address
//   the stack does not hold (a signal handler returning to its restorer, code that pushes its own return address)
//   leaves the stack alone.
// - At most kCapacity entries. Calls past it are counted (overflowed()) and not kept; while some are outstanding,
//   a return takes one of them back instead of looking at the entries.
// - The kernel's own calls and returns (cpl 0: the synthetic kernel paths) are not the program's and are skipped.
//
// Call edges (update() given a CallEdges table): the thread's running costs (costs(): each sampled event's exact
// count and samples, which the sampler adds as they come) are noted in each frame at its call; every
// frame a return pops adds one call and the costs since then to the edge (call site, callee), so a multi-frame pop
// closes each frame it passes. A callee whose first instructions are unconditional jumps (a PLT stub, a thunk) is
// named after where they lead. Frames still open when their thread or image ends are closed by report_open().
//
// Freestanding: plain data, one per guest thread (ThreadContext), used inside the Valgrind tool.
#pragma once

#include <cstdint>

#include "emulator/model/instruction.h"
#include "emulator/sampling/call_edges.h"

namespace netburst::emu::vg {

class ShadowStack {
public:
    // perf's default maximum chain is 127 entries besides the sample's own instruction pointer.
    static constexpr unsigned kCapacity = 127;

    // The thread's running costs, which the frames measure their calls against.
    using Costs = EventCosts;

    void clear() {
        depth_ = 0;
        excess_ = 0;
        entering_ = false;
    }
    // The instruction ran (after it: what it did to the stack holds from the next instruction on). With `edges`,
    // the frames it pops add their calls there.
    __attribute__((always_inline)) void update(const Instruction& insn, CallEdges* edges = nullptr) {
        if (insn.cpl == 0) return;
        if (__builtin_expect(entering_, 0)) follow_stub(insn);
        if (insn.cls == InsnClass::DirectCall || insn.cls == InsnClass::IndirectCall)
            push(insn);
        else if (insn.cls == InsnClass::Return)
            pop_to(insn.target, edges);
    }
    void push(const Instruction& call) {
        if (depth_ == kCapacity) {
            ++excess_;
            ++overflowed_;
            entering_ = false;
            return;
        }
        Frame& f = entries_[depth_++];
        f.return_address = call.pc + call.length;
        f.site = call.pc;
        f.callee = call.target;
        f.at_call.copy_from(costs_, events_);  // the recording's events only: costs beyond them are never read
        f.reported = false;
        entering_ = true;
    }
    void pop_to(std::uint64_t target, CallEdges* edges = nullptr) {
        if (excess_ != 0) {
            --excess_;
            return;
        }
        for (unsigned i = depth_; i-- > 0;)
            if (entries_[i].return_address == target) {
                if (edges)
                    while (depth_ > i) close(entries_[--depth_], edges);
                depth_ = i;
                return;
            }
    }

    // How many events the recording samples (default 1): the costs the frames keep.
    void set_events(unsigned events) { events_ = events; }
    // Sampled event `event` (SampleSpec::events' index) counted n more, or was sampled once more.
    void add_exact(std::uint64_t n, unsigned event = 0) { costs_.exact[event] += n; }
    void add_sample(unsigned event = 0) { ++costs_.samples[event]; }
    const Costs& costs() const { return costs_; }
    // The thread or its image ends with frames open: each adds its call (once) and its costs so far, and measures
    // from now on, should the image go on (an exec that failed).
    void report_open(CallEdges* edges) {
        for (unsigned i = 0; i < depth_; ++i) {
            close(entries_[i], edges);
            entries_[i].at_call = costs_;
            entries_[i].reported = true;
        }
    }
    // The frames go on in a new image (a forked child): they measure from now, and each call counts once there.
    void restart_frames() {
        for (unsigned i = 0; i < depth_; ++i) {
            entries_[i].at_call = costs_;
            entries_[i].reported = false;
        }
    }

    unsigned depth() const { return depth_; }
    // Entry i from the top (0: the innermost return address).
    std::uint64_t from_top(unsigned i) const { return entries_[depth_ - 1 - i].return_address; }
    // The callee of entry i from the top.
    std::uint64_t callee_from_top(unsigned i) const { return entries_[depth_ - 1 - i].callee; }
    // Calls that did not fit, over the thread's life.
    std::uint64_t overflowed() const { return overflowed_; }
    void forget_overflow() { overflowed_ = 0; }

private:
    struct Frame {
        std::uint64_t return_address;
        std::uint64_t site;    // the call's own address
        std::uint64_t callee;  // where it went
        Costs at_call;         // the thread's costs when it was made (or last reported)
        bool reported;         // report_open() has counted its call already
    };
    void close(const Frame& f, CallEdges* edges) const {
        edges->add(f.site, f.callee, f.reported ? 0 : 1, costs_.since(f.at_call, events_));
    }
    // The first instructions of the callee just entered: while they are unconditional jumps, the callee is where
    // they go (a call through the PLT names the function, not its stub).
    void follow_stub(const Instruction& insn) {
        if ((insn.cls == InsnClass::DirectJump || insn.cls == InsnClass::IndirectJump) && depth_ != 0)
            entries_[depth_ - 1].callee = insn.target;
        else
            entering_ = false;
    }

    Frame entries_[kCapacity] = {};
    unsigned depth_ = 0;
    bool entering_ = false;         // the top frame's callee has run only jumps so far
    std::uint64_t excess_ = 0;      // calls past the capacity whose returns have not come yet
    std::uint64_t overflowed_ = 0;
    Costs costs_{};
    unsigned events_ = 1;
};

}  // namespace netburst::emu::vg
