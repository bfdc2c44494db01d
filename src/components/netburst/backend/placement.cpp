#include "backend/placement.h"

#include <cerrno>

namespace netburst::component {

int KernelPlacement::current_cpu() { return sched_getcpu(); }

int KernelPlacement::pin(unsigned cpu, SavedAffinity* saved) {
    saved->valid = false;
    if (cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t old;
    CPU_ZERO(&old);
    if (sched_getaffinity(0, sizeof old, &old) != 0) return errno;
    // Already pinned to exactly this CPU (by the user, taskset or numactl): nothing to change or give back.
    if (CPU_COUNT(&old) == 1 && CPU_ISSET(cpu, &old)) return 0;
    cpu_set_t only;
    CPU_ZERO(&only);
    CPU_SET(cpu, &only);
    if (sched_setaffinity(0, sizeof only, &only) != 0) return errno;
    saved->mask = old;
    saved->valid = true;
    return 0;
}

void KernelPlacement::unpin(const SavedAffinity& saved) {
    if (saved.valid) sched_setaffinity(0, sizeof saved.mask, &saved.mask);
}

}  // namespace netburst::component
