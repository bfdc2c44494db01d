// Error reporting shared by the parser, the allocator and the tools: a code that callers can branch on (the
// netburst-events exit code, a PAPI error number) and a message written for the user.
#pragma once

#include <string>
#include <utility>

namespace netburst {

enum class ErrorCode {
    Ok = 0,
    BadInput,      // the string or option cannot be understood (unknown name, bad modifier, out of range)
    NotOnModel,    // the event exists, but not on the selected CPU model
    Conflict,      // valid events that cannot be counted together
    Unsupported,   // valid, but this backend cannot count it
    System,        // the operating system refused (device missing, permission)
};

struct Error {
    ErrorCode code = ErrorCode::Ok;
    std::string message;
};

// A value or an error. Small on purpose: the component is called from C, so nothing here throws.
template <typename T>
class Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(Error error) : error_(std::move(error)) {}

    bool ok() const { return error_.code == ErrorCode::Ok; }
    explicit operator bool() const { return ok(); }
    const T& value() const { return value_; }
    T& value() { return value_; }
    const T& operator*() const { return value_; }
    const T* operator->() const { return &value_; }
    const Error& error() const { return error_; }

private:
    T value_{};
    Error error_{};
};

inline Error make_error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

// The exit statuses of the table's command-line tools, netburst-events and netburst-emu: events that cannot be
// counted together (Conflict) and anything that cannot be understood.
enum ToolExit { kExitOk = 0, kExitConflict = 1, kExitBadInput = 2 };

}  // namespace netburst
