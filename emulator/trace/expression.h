// Integer expressions in text traces: addresses and branch outcomes that depend on loop counters, so a test can
// write a strided sweep or a random access pattern in one line (doc/trace-format.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace netburst::emu::trace {

// Values of the loop variables in scope, innermost last.
struct Bindings {
    std::vector<std::pair<std::string, std::int64_t>> vars;
    bool lookup(const std::string& name, std::int64_t* value) const;
};

class Expression {
public:
    // Parses `text`; on error returns null and sets *error.
    static std::unique_ptr<Expression> parse(const std::string& text, std::string* error);
    virtual ~Expression() = default;
    // Evaluates; on error (unknown variable, division by zero) returns false and sets *error.
    virtual bool eval(const Bindings& b, std::int64_t* out, std::string* error) const = 0;
    // True when the value is the same for every binding (no variables), so it can be evaluated once.
    virtual bool constant() const = 0;
};

// The deterministic hash behind rand(x): splitmix64.
std::uint64_t trace_hash(std::uint64_t x);

}  // namespace netburst::emu::trace
