#include "emulator/trace/text_trace.h"

#include <cctype>
#include <sstream>

namespace netburst::emu::trace {

namespace {

const char* const kClassNames[] = {
    "Nop", "IntAlu", "IntShift", "IntMul", "IntDiv", "CondBranch", "DirectJump", "IndirectJump", "DirectCall",
    "IndirectCall", "Return", "X87Arith", "X87Div", "X87Complex", "X87Move", "SseScalarSp", "SseScalarDp",
    "SsePackedSp", "SsePackedDp", "SseDivSp", "SseDivDp", "Mmx64", "Simd128Int", "SimdMove", "StringOp",
    "Microcode", "Fence", "Syscall", "Halt"};
static_assert(sizeof kClassNames / sizeof kClassNames[0] == static_cast<unsigned>(InsnClass::Count_),
              "every instruction class needs a name");

bool iequal(const std::string& a, const char* b) {
    std::size_t i = 0;
    for (; i < a.size() && b[i]; ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return i == a.size() && b[i] == '\0';
}

std::string strip_comment(const std::string& line) {
    const std::size_t hash = line.find('#');
    return hash == std::string::npos ? line : line.substr(0, hash);
}

std::vector<std::string> split_words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> words;
    std::string w;
    while (in >> w) words.push_back(w);
    return words;
}

bool parse_uint(const std::string& s, unsigned long long max, unsigned long long* out) {
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    try {
        std::size_t used = 0;
        *out = std::stoull(s, &used, 0);
        return used == s.size() && *out <= max;
    } catch (...) {
        return false;
    }
}

class TextParser {
public:
    explicit TextParser(const std::string& text) {
        std::istringstream in(text);
        std::string line;
        while (std::getline(in, line)) lines_.push_back(line);
    }

    bool run(TextTrace* out, std::string* error) {
        if (!parse_block(&out->statements, false, error)) return false;
        return true;
    }

private:
    bool fail(const std::string& message, std::string* error) {
        *error = std::to_string(line_no_) + ": " + message;
        return false;
    }

    bool parse_block(std::vector<Statement>* out, bool nested, std::string* error) {
        while (next_ < lines_.size()) {
            line_no_ = static_cast<int>(next_ + 1);
            const std::vector<std::string> words = split_words(strip_comment(lines_[next_++]));
            if (words.empty()) continue;
            if (words[0] == "}") {
                if (!nested) return fail("'}' without a matching 'repeat'", error);
                if (words.size() != 1) return fail("nothing may follow '}' on its line", error);
                return true;
            }
            if (words[0] == "netburst-trace") {
                if (words.size() != 2 || words[1] != "1") return fail("this reader knows netburst-trace 1", error);
                continue;
            }
            if (words[0] == "repeat") {
                if (!parse_repeat(words, out, error)) return false;
                continue;
            }
            Statement s;
            s.insn = std::make_unique<InstructionTemplate>();
            if (!parse_instruction(words, s.insn.get(), error)) return false;
            out->push_back(std::move(s));
        }
        if (nested) return fail("'repeat' block is not closed with '}'", error);
        return true;
    }

    bool parse_repeat(const std::vector<std::string>& words, std::vector<Statement>* out, std::string* error) {
        // repeat COUNT [as VAR] {
        std::size_t n = words.size();
        if (n < 3 || words[n - 1] != "{") return fail("write 'repeat COUNT [as NAME] {'", error);
        Statement s;
        s.var = "i";
        std::string count_text = words[1];
        if (n == 5) {
            if (words[2] != "as") return fail("write 'repeat COUNT as NAME {'", error);
            s.var = words[3];
        } else if (n != 3) {
            return fail("write 'repeat COUNT [as NAME] {'", error);
        }
        std::string err;
        s.count = Expression::parse(count_text, &err);
        if (!s.count) return fail(err, error);
        if (!parse_block(&s.body, true, error)) return false;
        out->push_back(std::move(s));
        return true;
    }

    bool parse_expr(const std::string& text, std::unique_ptr<Expression>* out, std::string* error) {
        std::string err;
        *out = Expression::parse(text, &err);
        if (!*out) return fail(err, error);
        return true;
    }

    bool parse_regs(const std::string& list, RegMask* out, std::string* error) {
        std::size_t start = 0;
        while (start <= list.size()) {
            std::size_t comma = list.find(',', start);
            if (comma == std::string::npos) comma = list.size();
            const std::string name = list.substr(start, comma - start);
            const RegMask bit = register_bit(name);
            if (!bit) return fail("unknown register '" + name + "'", error);
            *out |= bit;
            start = comma + 1;
        }
        return true;
    }

    bool parse_instruction(const std::vector<std::string>& words, InstructionTemplate* t, std::string* error) {
        t->line = line_no_;
        if (words.size() < 3) return fail("an instruction line is 'PC LENGTH CLASS [fields...]'", error);
        if (!parse_expr(words[0], &t->pc, error)) return false;
        unsigned long long len = 0;
        if (!parse_uint(words[1], 15, &len) || len == 0) return fail("length '" + words[1] + "' must be 1-15", error);
        t->length = static_cast<std::uint8_t>(len);
        if (!parse_insn_class(words[2], &t->cls)) return fail("unknown instruction class '" + words[2] + "'", error);
        for (std::size_t k = 3; k < words.size(); ++k) {
            const std::string& w = words[k];
            const std::size_t eq = w.find('=');
            const std::string key = w.substr(0, eq);
            const std::string value = eq == std::string::npos ? "" : w.substr(eq + 1);
            unsigned long long v = 0;
            if (key == "taken" && eq == std::string::npos) {
                t->taken = Expression::parse("1", error);
            } else if (key == "nottaken" && eq == std::string::npos) {
                t->taken.reset();
            } else if (key == "taken") {
                if (!parse_expr(value, &t->taken, error)) return false;
            } else if (key == "target") {
                if (!parse_expr(value, &t->target, error)) return false;
            } else if (key == "ld" || key == "st") {
                const std::size_t slash = value.rfind('/');
                if (slash == std::string::npos) return fail("write " + key + "=ADDRESS/SIZE", error);
                InstructionTemplate::Mem m;
                m.is_store = key == "st";
                if (!parse_uint(value.substr(slash + 1), 127, &v) || v == 0)
                    return fail("memory operand size must be 1-127 bytes", error);
                m.size = static_cast<std::uint8_t>(v);
                if (!parse_expr(value.substr(0, slash), &m.address, error)) return false;
                if (t->mem.size() == kMaxMemOperands) return fail("at most two memory operands", error);
                t->mem.push_back(std::move(m));
            } else if (key == "thread") {
                if (!parse_uint(value, 1, &v)) return fail("thread must be 0 or 1", error);
                t->thread = static_cast<std::uint8_t>(v);
            } else if (key == "cpl") {
                if (!parse_uint(value, 3, &v)) return fail("cpl must be 0-3", error);
                t->cpl = static_cast<std::uint8_t>(v);
            } else if (key == "rep") {
                if (!parse_uint(value, 1ull << 40, &v) || v == 0) return fail("rep must be a positive count", error);
                unsigned log2 = 0;
                while ((1ull << (log2 + 1)) <= v) ++log2;
                t->rep_count_log2 = static_cast<std::uint8_t>(log2 == 0 ? 1 : log2);
            } else if (key == "rd") {
                if (!parse_regs(value, &t->reads, error)) return false;
            } else if (key == "wr") {
                if (!parse_regs(value, &t->writes, error)) return false;
            } else {
                return fail("unknown field '" + w + "'", error);
            }
        }
        return true;
    }

    std::vector<std::string> lines_;
    std::size_t next_ = 0;
    int line_no_ = 0;
};

}  // namespace

bool parse_insn_class(const std::string& name, InsnClass* out) {
    for (unsigned i = 0; i < static_cast<unsigned>(InsnClass::Count_); ++i)
        if (iequal(name, kClassNames[i])) {
            *out = static_cast<InsnClass>(i);
            return true;
        }
    return false;
}

const char* insn_class_name(InsnClass cls) {
    const unsigned i = static_cast<unsigned>(cls);
    return i < static_cast<unsigned>(InsnClass::Count_) ? kClassNames[i] : "?";
}

RegMask register_bit(const std::string& raw) {
    std::string name;
    for (char c : raw) name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    static const char* const k64[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi"};
    static const char* const k32[] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
    for (unsigned i = 0; i < 8; ++i)
        if (name == k64[i] || name == k32[i]) return reg_gpr(i);
    for (unsigned i = 8; i < 16; ++i)
        if (name == "r" + std::to_string(i) || name == "r" + std::to_string(i) + "d") return reg_gpr(i);
    if (name == "flags" || name == "eflags" || name == "rflags") return kRegFlags;
    if (name == "x87") return kRegX87;
    for (unsigned i = 0; i < 8; ++i) {
        if (name == "st" + std::to_string(i)) return reg_st(i);
        if (name == "mm" + std::to_string(i)) return reg_mm(i);
    }
    if (name == "x87push") return kX87Push;
    if (name == "x87pop") return kX87Pop;
    if (name == "x87pop2") return kX87Pop2;
    if (name == "fxch") return kX87Exchange;
    for (unsigned i = 0; i < 16; ++i)
        if (name == "xmm" + std::to_string(i)) return reg_xmm(i);
    return 0;
}

bool parse_text_trace(const std::string& text, TextTrace* out, std::string* error) {
    return TextParser(text).run(out, error);
}

TextTraceRunner::TextTraceRunner(const TextTrace& trace) {
    stack_.push_back(Frame{&trace.statements, 0, 0, -1});
}

int TextTraceRunner::next(Instruction* insn, std::string* error) {
    while (!stack_.empty()) {
        Frame& f = stack_.back();
        if (f.index == f.body->size()) {
            if (f.count >= 0 && ++f.iteration < f.count) {
                f.index = 0;
                bindings_.vars.back().second = f.iteration;
                continue;
            }
            if (f.count >= 0) bindings_.vars.pop_back();
            stack_.pop_back();
            continue;
        }
        const Statement& s = (*f.body)[f.index++];
        if (!s.insn) {
            std::int64_t count = 0;
            if (!s.count->eval(bindings_, &count, error)) return -1;
            if (count <= 0) continue;
            bindings_.vars.emplace_back(s.var, 0);
            stack_.push_back(Frame{&s.body, 0, 0, count});
            continue;
        }
        const InstructionTemplate& t = *s.insn;
        *insn = Instruction{};
        std::int64_t v = 0;
        auto eval = [&](const Expression& e, std::int64_t* out) {
            if (e.eval(bindings_, out, error)) return true;
            *error = std::to_string(t.line) + ": " + *error;
            return false;
        };
        if (!eval(*t.pc, &v)) return -1;
        insn->pc = static_cast<std::uint64_t>(v);
        insn->length = t.length;
        insn->cls = t.cls;
        insn->thread = t.thread;
        insn->cpl = t.cpl;
        insn->num_mem = static_cast<std::uint8_t>(t.mem.size());
        for (std::size_t k = 0; k < t.mem.size(); ++k) {
            if (!eval(*t.mem[k].address, &v)) return -1;
            insn->mem[k].address = static_cast<std::uint64_t>(v);
            insn->mem[k].size = t.mem[k].size;
            insn->mem[k].is_store = t.mem[k].is_store;
        }
        if (t.taken) {
            if (!eval(*t.taken, &v)) return -1;
            insn->taken = v != 0;
        }
        if (t.target) {
            if (!eval(*t.target, &v)) return -1;
            insn->target = static_cast<std::uint64_t>(v);
        }
        insn->rep_count_log2 = t.rep_count_log2;
        insn->reads = t.reads;
        insn->writes = t.writes;
        return 1;
    }
    return 0;
}

}  // namespace netburst::emu::trace
