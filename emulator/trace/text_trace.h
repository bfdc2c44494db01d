// The human-writable trace form (doc/trace-format.md): one instruction per line, with `repeat N [as VAR] { }`
// blocks and expressions over loop variables, so a test can describe a million-instruction loop in five lines.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emulator/model/instruction.h"
#include "emulator/trace/expression.h"

namespace netburst::emu::trace {

// One parsed line: an instruction whose fields may depend on loop variables.
struct InstructionTemplate {
    int line = 0;
    std::unique_ptr<Expression> pc;
    std::uint8_t length = 1;
    InsnClass cls = InsnClass::IntAlu;
    std::uint8_t thread = 0;
    std::uint8_t cpl = 3;
    struct Mem {
        std::unique_ptr<Expression> address;
        std::uint8_t size = 0;
        bool is_store = false;
    };
    std::vector<Mem> mem;
    std::unique_ptr<Expression> taken;   // null: not a branch outcome given (false)
    std::unique_ptr<Expression> target;  // null: none
    std::uint8_t rep_count_log2 = 0;
    RegMask reads = 0, writes = 0;
};

struct Statement {
    // Either an instruction, or a repeat block with a count, a variable name and a body.
    std::unique_ptr<InstructionTemplate> insn;
    std::unique_ptr<Expression> count;
    std::string var;
    std::vector<Statement> body;
};

struct TextTrace {
    std::vector<Statement> statements;
};

// Parses the whole text; on error returns false with "LINE: message" in *error.
bool parse_text_trace(const std::string& text, TextTrace* out, std::string* error);

// Walks a parsed trace and yields instructions one at a time (repeats expand lazily).
class TextTraceRunner {
public:
    explicit TextTraceRunner(const TextTrace& trace);
    // Returns 1 with *insn filled, 0 at the end, -1 on an evaluation error (*error set).
    int next(Instruction* insn, std::string* error);

private:
    struct Frame {
        const std::vector<Statement>* body;
        std::size_t index;
        std::int64_t iteration;
        std::int64_t count;  // -1 for the top level
    };
    std::vector<Frame> stack_;
    Bindings bindings_;
};

// Register names for rd=/wr= lists: rax..r15 (and their 32-bit names), flags, x87 (also st0-st7, mm0-mm7),
// xmm0-xmm15. Returns 0 for an unknown name.
RegMask register_bit(const std::string& name);

// InsnClass by its name in instruction.h, case-insensitively; false if unknown.
bool parse_insn_class(const std::string& name, InsnClass* out);
const char* insn_class_name(InsnClass cls);

}  // namespace netburst::emu::trace
