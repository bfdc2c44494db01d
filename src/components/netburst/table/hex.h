// Hexadecimal numbers in messages and reports: register addresses, register values, CPUID signatures.
// One spelling everywhere ("0x3a0", or "0x000003A0" where msr-safe's allow-list format wants upper case and
// fixed width), so that a value in an error message can be searched for in the SDM tables and in our own output.
#pragma once

#include <cstdint>
#include <string>

namespace netburst {

// "0x" and lower-case digits, no padding.
inline std::string hex(std::uint64_t value) {
    static const char kDigits[] = "0123456789abcdef";
    char buf[2 + 16];
    int n = sizeof buf;
    do {
        buf[--n] = kDigits[value & 0xF];
        value >>= 4;
    } while (value != 0);
    return "0x" + std::string(buf + n, buf + sizeof buf);
}

// "0x" and upper-case digits, zero-padded to at least min_digits.
inline std::string hex_upper(std::uint64_t value, int min_digits = 0) {
    static const char kDigits[] = "0123456789ABCDEF";
    char buf[16];
    int n = sizeof buf;
    do {
        buf[--n] = kDigits[value & 0xF];
        value >>= 4;
    } while (value != 0);
    std::string digits(buf + n, buf + sizeof buf);
    if (static_cast<int>(digits.size()) < min_digits) digits.insert(0, min_digits - digits.size(), '0');
    return "0x" + digits;
}

}  // namespace netburst
