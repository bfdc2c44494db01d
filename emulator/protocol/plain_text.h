// Reading and writing the small line-oriented files the tool shares with netburst-run, without a C library:
// the tool has none, and both sides must agree byte for byte, so both use these.
#pragma once

#include <cstddef>
#include <cstdint>

namespace netburst::emu::vg {

// Splits text into lines and lines into space-separated words.
class LineScanner {
public:
    LineScanner(const char* text, std::size_t length) : p_(text), end_(text + length) {}
    // Moves to the next non-empty line; false at the end. line() is its 1-based number.
    bool next_line();
    unsigned line() const { return line_; }
    // The next word of the current line, or false at its end.
    bool word(const char** begin, std::size_t* size);
    // The next word as a number (decimal or 0x-hexadecimal); false when absent or not a number.
    bool number(std::uint64_t* value);
    // Whether the next word is exactly `expected`.
    bool keyword(const char* expected);
    // Whether the current line has no more words.
    bool at_line_end();
    // The rest of the current line from its next word on (spaces inside kept, trailing ones dropped): a field that
    // may hold spaces, such as a C++ function name, written last on its line.
    void rest(const char** begin, std::size_t* size);

private:
    const char* p_;
    const char* end_;
    const char* line_end_ = nullptr;
    unsigned line_ = 0;
};

// Appends to a fixed buffer; remembers when it ran out of room.
class TextWriter {
public:
    TextWriter(char* buffer, std::size_t capacity) : buf_(buffer), cap_(capacity) {
        if (cap_ > 0) buf_[0] = 0;
    }
    TextWriter& str(const char* s);
    TextWriter& dec(std::uint64_t v);
    TextWriter& hex(std::uint64_t v);  // with 0x
    TextWriter& ch(char c);
    bool ok() const { return ok_; }
    // The length written (NUL not included), or 0 when the buffer was too small.
    std::size_t finish() const { return ok_ ? len_ : 0; }

private:
    char* buf_;
    std::size_t cap_;
    std::size_t len_ = 0;
    bool ok_ = true;
};

bool equal_word(const char* word, std::size_t size, const char* expected);

}  // namespace netburst::emu::vg
