// Event strings: [netburst::]event[:MASK...][:u][:k][:cmpl][:e][:thr=N][:tag=N][:precise=N], as libpfm4 writes them.
//
// Masks may come in any order and any case. The libpfm4 spellings are canonical; SDM spellings are aliases.
// libpfm4's "k=1:u=1:e=0:cmpl=0:thr=0" long form is accepted too, so its printed strings parse back.
#pragma once

#include <string>
#include <vector>

#include "events/request.h"
#include "events/status.h"

namespace netburst {

// Parses one event string for CPU model `model`. Errors are BadInput (with nearest-name suggestions where a name
// is unknown) or NotOnModel.
Result<EventRequest> parse_event(const std::string& text, unsigned model);

// Every name parse_event accepts as a base name (events, aliases and metrics), for suggestions and completion.
std::vector<std::string> all_base_names();

// Whether the request's counting event can drive PEBS ("can support PEBS" in Table 19-29: front_end_event,
// execution_event and replay_event), and the metrics that count with one of them, for error messages.
bool request_drives_pebs(const EventRequest& request);
// The event-string syntax the parser takes, as the tools print it. A macro: the tools splice it into their help texts.
#define NETBURST_EVENT_SYNTAX "[netburst::]event[:MASK...][:u][:k][:cmpl][:e][:thr=N][:tag=N][:precise=N|:p|:pp|:ppp]"

std::vector<std::string> pebs_metric_names();

}  // namespace netburst
