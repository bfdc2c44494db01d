#include "emulator/protocol/plain_text.h"

namespace netburst::emu::vg {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

bool equal_word(const char* word, std::size_t size, const char* expected) {
    std::size_t i = 0;
    for (; i < size; ++i)
        if (expected[i] != word[i]) return false;
    return expected[i] == 0;
}

bool LineScanner::next_line() {
    for (;;) {
        if (line_end_) p_ = line_end_ < end_ ? line_end_ + 1 : end_;
        if (p_ >= end_) return false;
        line_end_ = p_;
        while (line_end_ < end_ && *line_end_ != '\n') ++line_end_;
        ++line_;
        if (!at_line_end()) return true;
    }
}

bool LineScanner::at_line_end() {
    while (p_ < line_end_ && is_space(*p_)) ++p_;
    return p_ >= line_end_;
}

void LineScanner::rest(const char** begin, std::size_t* size) {
    at_line_end();
    const char* e = line_end_;
    while (e > p_ && is_space(e[-1])) --e;
    *begin = p_;
    *size = static_cast<std::size_t>(e - p_);
    p_ = line_end_;
}

bool LineScanner::word(const char** begin, std::size_t* size) {
    if (at_line_end()) return false;
    const char* b = p_;
    while (p_ < line_end_ && !is_space(*p_)) ++p_;
    *begin = b;
    *size = static_cast<std::size_t>(p_ - b);
    return true;
}

bool LineScanner::keyword(const char* expected) {
    const char* w;
    std::size_t n;
    return word(&w, &n) && equal_word(w, n, expected);
}

bool LineScanner::number(std::uint64_t* value) {
    const char* w;
    std::size_t n;
    if (!word(&w, &n)) return false;
    unsigned base = 10;
    std::size_t i = 0;
    if (n > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) {
        base = 16;
        i = 2;
    }
    std::uint64_t v = 0;
    for (; i < n; ++i) {
        unsigned d;
        const char c = w[i];
        if (c >= '0' && c <= '9') d = static_cast<unsigned>(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f') d = static_cast<unsigned>(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F') d = static_cast<unsigned>(c - 'A' + 10);
        else return false;
        if (v > (~std::uint64_t{0} - d) / base) return false;  // overflow
        v = v * base + d;
    }
    *value = v;
    return true;
}

TextWriter& TextWriter::ch(char c) {
    if (len_ + 1 < cap_) {
        buf_[len_++] = c;
        buf_[len_] = 0;
    } else {
        ok_ = false;
    }
    return *this;
}

TextWriter& TextWriter::str(const char* s) {
    while (*s) ch(*s++);
    return *this;
}

TextWriter& TextWriter::dec(std::uint64_t v) {
    char digits[20];
    unsigned n = 0;
    do {
        digits[n++] = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v);
    while (n) ch(digits[--n]);
    return *this;
}

TextWriter& TextWriter::hex(std::uint64_t v) {
    static const char kDigits[] = "0123456789abcdef";
    char digits[16];
    unsigned n = 0;
    do {
        digits[n++] = kDigits[v & 15];
        v >>= 4;
    } while (v);
    str("0x");
    while (n) ch(digits[--n]);
    return *this;
}

}  // namespace netburst::emu::vg
