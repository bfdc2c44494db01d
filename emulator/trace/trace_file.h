// Reading and writing trace files in either form. A reader detects the form from the first bytes.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "emulator/model/instruction.h"
#include "emulator/trace/binary_codec.h"
#include "emulator/trace/text_trace.h"

namespace netburst::emu::trace {

class TraceReader {
public:
    // Opens `path`; returns null with *error set when it cannot be opened or parsed.
    static std::unique_ptr<TraceReader> open(const std::string& path, std::string* error);
    // Reads a trace from memory (tests).
    static std::unique_ptr<TraceReader> from_text(const std::string& text, std::string* error);

    ~TraceReader();
    // 1: *insn filled; 0: end of trace; -1: error (*error set, with the record or line).
    int next(Instruction* insn, std::string* error);
    const std::string& name() const { return name_; }

private:
    TraceReader() = default;
    std::string name_;
    // Text form
    std::unique_ptr<TextTrace> text_;
    std::unique_ptr<TextTraceRunner> runner_;
    // Binary form
    FILE* file_ = nullptr;
    std::vector<std::uint8_t> buffer_;
    std::size_t begin_ = 0, end_ = 0;
    std::uint64_t records_ = 0;
    CodecState codec_{};
    bool eof_ = false;
};

class BinaryTraceWriter {
public:
    static std::unique_ptr<BinaryTraceWriter> create(const std::string& path, std::string* error);
    ~BinaryTraceWriter();
    bool write(const Instruction& insn);
    bool close(std::string* error);

private:
    FILE* file_ = nullptr;
    CodecState codec_{};
    bool failed_ = false;
};

// One instruction as a text-trace line (without a newline).
std::string format_text_line(const Instruction& insn);

}  // namespace netburst::emu::trace
