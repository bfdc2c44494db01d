// PAPI's counting domains on NetBurst. An ESCR selects privilege levels per logical processor with its T0/T1 USR
// (CPL 1-3) and OS (CPL 0) bits; the allocator picks the T0 or T1 pair for the thread's logical processor, and the
// domain decides USR and OS for every event that names neither :u nor :k.
#pragma once

#include "component/glue_api.h"
#include "events/request.h"

namespace netburst::component {

constexpr int kAvailableDomains = NB_DOMAIN_USER | NB_DOMAIN_KERNEL;

// PAPI_DOM_USER, PAPI_DOM_KERNEL or both; PAPI_DOM_OTHER and PAPI_DOM_SUPERVISOR have no ESCR bit.
constexpr bool domain_supported(int domain) { return domain != 0 && (domain & ~kAvailableDomains) == 0; }

inline Privilege privilege_for_domain(int domain) {
    Privilege p;
    p.user = (domain & NB_DOMAIN_USER) != 0;
    p.kernel = (domain & NB_DOMAIN_KERNEL) != 0;
    return p;
}

}  // namespace netburst::component
