#include "emulator/trace/trace_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include "table/hex.h"

namespace netburst::emu::trace {

namespace {
constexpr std::size_t kBufferBytes = 1 << 16;

std::string register_list(RegMask mask) {
    static const char* const kGpr[] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                       "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    std::string out;
    auto add = [&](const std::string& n) { out += (out.empty() ? "" : ",") + n; };
    for (unsigned i = 0; i < 16; ++i)
        if (mask & reg_gpr(i)) add(kGpr[i]);
    if (mask & kRegFlags) add("flags");
    if (mask & kRegX87) add("x87");
    for (unsigned i = 0; i < 16; ++i)
        if (mask & reg_xmm(i)) add("xmm" + std::to_string(i));
    for (unsigned i = 0; i < 8; ++i)
        if (mask & reg_st(i)) add("st" + std::to_string(i));
    for (unsigned i = 0; i < 8; ++i)
        if (mask & reg_mm(i)) add("mm" + std::to_string(i));
    switch (mask & kX87TopMask) {
    case kX87Push: add("x87push"); break;
    case kX87Pop: add("x87pop"); break;
    case kX87Pop2: add("x87pop2"); break;
    default: break;
    }
    if (mask & kX87Exchange) add("fxch");
    return out;
}
}  // namespace

std::unique_ptr<TraceReader> TraceReader::from_text(const std::string& text, std::string* error) {
    std::unique_ptr<TraceReader> r(new TraceReader);
    r->name_ = "<text>";
    r->text_ = std::make_unique<TextTrace>();
    if (!parse_text_trace(text, r->text_.get(), error)) return nullptr;
    r->runner_ = std::make_unique<TextTraceRunner>(*r->text_);
    return r;
}

std::unique_ptr<TraceReader> TraceReader::open(const std::string& path, std::string* error) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) {
        *error = path + ": " + std::strerror(errno);
        return nullptr;
    }
    char magic[sizeof kBinaryMagic] = {};
    const std::size_t got = std::fread(magic, 1, sizeof magic, f);
    if (got == sizeof magic && std::memcmp(magic, kBinaryMagic, sizeof magic) == 0) {
        std::unique_ptr<TraceReader> r(new TraceReader);
        r->name_ = path;
        r->file_ = f;
        r->buffer_.resize(kBufferBytes);
        return r;
    }
    std::fclose(f);
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string parse_error;
    auto r = from_text(ss.str(), &parse_error);
    if (!r) {
        *error = path + ":" + parse_error;
        return nullptr;
    }
    r->name_ = path;
    return r;
}

TraceReader::~TraceReader() {
    if (file_) std::fclose(file_);
}

int TraceReader::next(Instruction* insn, std::string* error) {
    if (runner_) return runner_->next(insn, error);
    for (;;) {
        const std::size_t used = decode_record(buffer_.data() + begin_, end_ - begin_, &codec_, insn);
        if (used == kDecodeError) {
            *error = name_ + ": record " + std::to_string(records_) + " is malformed";
            return -1;
        }
        if (used > 0) {
            begin_ += used;
            ++records_;
            return 1;
        }
        // Refill: keep the partial record at the front.
        if (eof_) {
            if (begin_ == end_) return 0;
            *error = name_ + ": record " + std::to_string(records_) + " is truncated";
            return -1;
        }
        std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
        end_ -= begin_;
        begin_ = 0;
        const std::size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
        if (got == 0) eof_ = true;
        end_ += got;
    }
}

std::unique_ptr<BinaryTraceWriter> BinaryTraceWriter::create(const std::string& path, std::string* error) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) {
        *error = path + ": " + std::strerror(errno);
        return nullptr;
    }
    std::unique_ptr<BinaryTraceWriter> w(new BinaryTraceWriter);
    w->file_ = f;
    if (std::fwrite(kBinaryMagic, 1, sizeof kBinaryMagic, f) != sizeof kBinaryMagic) w->failed_ = true;
    return w;
}

BinaryTraceWriter::~BinaryTraceWriter() {
    if (file_) std::fclose(file_);
}

bool BinaryTraceWriter::write(const Instruction& insn) {
    std::uint8_t buf[kMaxRecordBytes];
    const std::size_t n = encode_record(insn, &codec_, buf);
    if (std::fwrite(buf, 1, n, file_) != n) failed_ = true;
    return !failed_;
}

bool BinaryTraceWriter::close(std::string* error) {
    const bool ok = std::fclose(file_) == 0 && !failed_;
    file_ = nullptr;
    if (!ok) *error = std::string("writing the trace failed: ") + std::strerror(errno);
    return ok;
}

std::string format_text_line(const Instruction& insn) {
    std::string s = hex(insn.pc) + " " + std::to_string(insn.length) + " " + insn_class_name(insn.cls);
    if (insn.thread) s += " thread=" + std::to_string(insn.thread);
    if (insn.cpl != 3) s += " cpl=" + std::to_string(insn.cpl);
    for (unsigned i = 0; i < insn.num_mem; ++i)
        s += std::string(insn.mem[i].is_store ? " st=" : " ld=") + hex(insn.mem[i].address) + "/" +
             std::to_string(insn.mem[i].size);
    if (insn.taken) s += " taken";
    if (insn.target) s += " target=" + hex(insn.target);
    if (insn.rep_count_log2) s += " rep=" + std::to_string(1ull << insn.rep_count_log2);
    if (insn.reads) s += " rd=" + register_list(insn.reads);
    if (insn.writes) s += " wr=" + register_list(insn.writes);
    return s;
}

}  // namespace netburst::emu::trace
