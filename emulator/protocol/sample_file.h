// What the tool reports to `netburst-run record` for one process image: its samples, each instruction's exact count
// of each sampled event, where those instructions are in the source, and the objects the process had mapped.
//
//   netburst-samples 3
//   events N                     the recording samples N events (the event program's `sample` lines, in order);
//                                EVENT below is one of them, 0 to N - 1
//   process PID EXE              the process and its executable (EXE: the rest of the line)
//   kernel LO HI                 the synthetic kernel paths' instructions lie at LO <= IP < HI (CPL 0): samples
//                                there are the kernel's. Absent without the kernel model. The x86-64 and the i386
//                                kernel have their own addresses (emulator/valgrind/kernel_model.cpp)
//   i EVENT TID CYCLE IP         an overflow-interrupt (IEBS) sample of EVENT: the interrupt returned to IP
//   p EVENT TID CYCLE IP [ADDR]  a PEBS sample of EVENT: IP caused the event; ADDR, when present, is its data address
//   chain [RET...]               (record -g) the call chain of the sample on the line before: the return addresses
//                                of the thread's shadow call stack at IP, innermost first (shadow_stack.h)
//   cycles N                     the image's last emulated cycle (its emulator counts from 0; an exec'd image's
//                                times follow this)
//   lost N                       interrupts that returned nowhere (their thread stopped while they waited)
//   chain-overflow N             (record -g) calls the shadow stacks could not hold (deeper than their capacity)
//   count IP C...                the instruction at IP caused C events of each sampled event, N numbers (the exact
//                                counts, not sampled)
//   call SITE CALLEE CALLS EXACT SAMPLES...
//                                (record --callgrind) CALLS calls from the instruction at SITE to CALLEE, and what
//                                happened while they were open, callees included, for each sampled event (N pairs):
//                                EXACT events (the exact count) and SAMPLES samples. A call still open when its
//                                thread or image ended counts with what it cost so far (an image that goes on after
//                                a failed exec adds to it, CALLS 0)
//   fn IP NAME                   IP's function (NAME: the rest of the line)
//   src IP LINE FILE             IP's source line (FILE: the rest of the line)
//   map START LEN PGOFF PROT DEV INO PATH
//                                a file-backed mapping (PROT: 1 read, 2 write, 4 execute; DEV as stat's st_dev;
//                                PATH: the rest of the line), or an anonymous one with PATH //anon
//   end                          the file is complete
//
// TID is the Linux thread id; CYCLE the emulated cycle of the interrupt's delivery (IEBS) or of the sampled uop's
// retirement (PEBS). Numbers are decimal or 0x-hexadecimal. Freestanding: the tool writes it, netburst-run reads it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "emulator/protocol/plain_text.h"

namespace netburst::emu::vg {

// The format's version, the number after `netburst-samples`: the tool writes it and netburst-run accepts no other.
constexpr unsigned kSamplesFileVersion = 3;

// Line-at-a-time writing into a fixed buffer, handed to `sink` whenever the next line might not fit.
class SampleWriter {
public:
    using Sink = void (*)(const void* bytes, std::size_t size);
    static constexpr std::size_t kCapacity = 1 << 16;
    // Room for any one line: a path or a function name is cut at kMaxText bytes.
    static constexpr std::size_t kMaxText = 4096;
    static constexpr std::size_t kMaxLine = kMaxText + 256;

    void set_sink(Sink sink) { sink_ = sink; }
    // A writer for the next line (flushes first when the buffer might not hold it); end each line with '\n'.
    TextWriter line() {
        if (used_ + kMaxLine > kCapacity) flush();
        return TextWriter(buffer_ + used_, kCapacity - used_);
    }
    // The line just written through line()'s writer.
    void commit(const TextWriter& w) { used_ += w.finish(); }
    void flush() {
        if (used_ != 0 && sink_) sink_(buffer_, used_);
        used_ = 0;
    }

private:
    Sink sink_ = nullptr;
    char buffer_[kCapacity];
    std::size_t used_ = 0;
};

// Appends at most SampleWriter::kMaxText bytes of `text` (a path or name from the debug information).
void append_text(TextWriter& w, const char* text);

}  // namespace netburst::emu::vg
