// What an event set will program, in the terms a backend on shared hardware checks and saves (PmuClaim): read
// off the set's start writes, so that it always matches what start will write.
#pragma once

#include "backend/backend.h"
#include "component/glue_api.h"

namespace netburst::component {

PmuClaim claim_of(const nb_event_set& set);

// Makes the calling thread's backend calls target the event set's CPU (its attached CPU, or the thread's own)
// for the lifetime of the scope, and puts the previous target back: PAPI's timer signal may run another set's
// read in the middle of this one's.
class CpuTarget {
public:
    CpuTarget(Backend& backend, const nb_event_set& set) : backend_(backend), previous_(backend.select_cpu(set.attached_cpu)) {}
    ~CpuTarget() { backend_.select_cpu(previous_); }
    CpuTarget(const CpuTarget&) = delete;
    CpuTarget& operator=(const CpuTarget&) = delete;

private:
    Backend& backend_;
    int previous_;
};

}  // namespace netburst::component
