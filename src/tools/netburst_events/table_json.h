// The hardware table as JSON (netburst-events --json, documented in doc/netburst-events.md).
#pragma once

#include <nlohmann/json.hpp>

#include "alloc/schedule.h"
#include "encode/program.h"
#include "table/events.h"
#include "table/hex.h"
#include "table/metrics.h"

namespace netburst::tools {

using netburst::hex;

nlohmann::ordered_json msrs_json();
nlohmann::ordered_json event_json(const EventDef& event);
nlohmann::ordered_json metric_json(const MetricDef& metric);
nlohmann::ordered_json table_json();

// A schedule and its MSR programs, for --encode and --schedule.
nlohmann::ordered_json writes_json(const std::vector<MsrWrite>& writes);
nlohmann::ordered_json schedule_json(const std::vector<EventRequest>& requests, const Schedule& schedule);

}  // namespace netburst::tools
