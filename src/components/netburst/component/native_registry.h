// The component's native events as PAPI sees them: a code for every event and at-retirement metric of the table
// (PAPI's "events"), with their masks as PAPI's "umasks", and a code for any other spelling a user writes.
//
// Names are PAPI's convention without the "netburst:::" prefix PAPI adds: event[:MASK...][:u][:k][:cmpl][:e]
// [:thr=N][:tag=N][:precise=N] (:precise: sample by PEBS when overflow is set, doc/sampling.md). Every name goes through the event parser, and a code stands for one canonical request: masks
// in any order, SDM aliases and libpfm4's replay_event virtual masks all map to the code of the canonical spelling,
// and the name of a code is that spelling (so preset CSV terms, which are canonical, round-trip exactly).
//
// Enumerated codes are fixed by the table order, so they do not change between PAPI_library_init calls; codes for
// other spellings are added on first use. All methods are thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "events/request.h"
#include "events/status.h"

namespace netburst::component {

class NativeRegistry {
public:
    explicit NativeRegistry(unsigned model);

    unsigned model() const { return model_; }
    // Events and metrics enumerated as PAPI events (their masks not counted).
    unsigned num_events() const;

    // Enumeration, as PAPI's ntv_enum_events: the first event, the event after the one `code` belongs to, and the
    // next mask of `code`'s event (starting from the event itself). False at the end.
    bool first(unsigned* code) const;
    bool next_event(unsigned* code) const;
    bool next_umask(unsigned* code) const;

    // The code of a name: BadInput or NotOnModel (with the parser's message) when it is not a native event.
    Result<unsigned> code_for(const std::string& name);

    bool name_of(unsigned code, std::string* name) const;
    // Long description; for a mask, PAPI's "event description, masks:mask description" form.
    bool description_of(unsigned code, std::string* description) const;
    bool short_description_of(unsigned code, std::string* description) const;

    // The request behind a code, for scheduling. An enumerated event without a default mask is listed but not
    // countable by itself (branch_retired needs a mask): the error says which masks to name.
    Result<EventRequest> request_of(unsigned code) const;

private:
    struct Entry {
        std::string name;
        std::string description;
        std::string short_description;
        Result<EventRequest> request{Error{ErrorCode::BadInput, "not parsed"}};
        unsigned base = 0;  // enumerated: the index of the event's entry; added later: its own index
        unsigned end = 0;   // an event's entry: one past its last mask
    };

    void enumerate_event(unsigned event_index);
    void enumerate_metric(unsigned metric_index);
    // One enumerated name (an event, a metric or one of their masks), parsed for the model, under the entry `base`.
    void enumerate_name(std::string name, std::string description, std::string short_description, unsigned base);
    unsigned push(Entry entry);
    void index_canonical_names();
    const Entry* find(unsigned code) const;  // caller holds mutex_
    bool text_of(unsigned code, std::string Entry::*field, std::string* out) const;  // one of the entry's texts

    unsigned model_;
    mutable std::mutex mutex_;
    std::vector<Entry> entries_;
    unsigned num_enumerated_ = 0;
    unsigned num_events_ = 0;
    std::unordered_map<std::string, unsigned> by_canonical_name_;
};

}  // namespace netburst::component
