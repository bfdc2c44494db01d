// ASCII helpers that need no C library, so that table lookups also work inside the Valgrind tool.
#pragma once

namespace netburst {

constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

// Case-insensitive equality of two NUL-terminated strings.
constexpr bool ascii_iequal(const char* a, const char* b) {
    for (; *a && *b; ++a, ++b)
        if (ascii_lower(*a) != ascii_lower(*b)) return false;
    return *a == *b;
}

// Case-insensitive equality of the first n characters of a with the whole of NUL-terminated b.
constexpr bool ascii_iequal_n(const char* a, unsigned long n, const char* b) {
    unsigned long i = 0;
    for (; i < n && b[i]; ++i)
        if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
    return i == n && b[i] == '\0';
}

}  // namespace netburst
