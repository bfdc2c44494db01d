// The base of the backend's interfaces (Backend, MsrIo, ThreadPlacement): each is used through a pointer or a
// reference to it, deleted through it, and never copied.
#pragma once

namespace netburst::component {

class Interface {
public:
    virtual ~Interface() = default;
    Interface(const Interface&) = delete;
    Interface& operator=(const Interface&) = delete;

protected:
    Interface() = default;
};

}  // namespace netburst::component
