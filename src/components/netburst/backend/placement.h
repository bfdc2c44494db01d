// Where the calling thread runs, and pinning it there.
//
// The NetBurst counters count a logical processor, not a thread: whatever runs on that CPU at the selected
// privilege levels is counted. For counts to describe the thread that asked for them, the thread must stay on
// one CPU while it counts, so the backend pins a thread to the CPU it is running on when the thread first uses
// the component (PAPI_library_init for the main thread, PAPI_register_thread or the first call for others) and
// gives the thread its old CPU affinity back when PAPI lets go of it.
//
// Behind an interface because tests run a synthetic topology (a two-package Xeon) on a machine whose CPUs do
// not match it.
#pragma once

#include <sched.h>

#include "backend/interface.h"

namespace netburst::component {

// A thread's CPU affinity before pinning, to give back.
struct SavedAffinity {
    cpu_set_t mask;
    bool valid = false;
};

class ThreadPlacement : public Interface {
public:

    // The OS number of the CPU the calling thread is running on, or -1.
    virtual int current_cpu() = 0;
    // Restricts the calling thread to `cpu`. Saves the old affinity into *saved when it allowed other CPUs.
    // Returns 0 or an errno value.
    virtual int pin(unsigned cpu, SavedAffinity* saved) = 0;
    // Gives the calling thread the affinity in `saved` back (nothing when !saved.valid).
    virtual void unpin(const SavedAffinity& saved) = 0;
};

// sched_getcpu and sched_setaffinity on the calling thread.
class KernelPlacement final : public ThreadPlacement {
public:
    int current_cpu() override;
    int pin(unsigned cpu, SavedAffinity* saved) override;
    void unpin(const SavedAffinity& saved) override;
};

}  // namespace netburst::component
