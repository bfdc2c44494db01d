// CPU models of the NetBurst family (CPUID family 0FH) and sets of them.
//
// The table marks facts that exist only on some models (IQ_ESCR0/1, instr_completed, extended cascading), so
// everything that reads it needs one small vocabulary for "which models". A set is a bitmask over model numbers.
#pragma once

#include "table/default_model.h"

#include <cstdint>

namespace netburst {

using ModelSet = std::uint8_t;

constexpr ModelSet model_bit(unsigned model) { return static_cast<ModelSet>(1u << model); }

// Models Intel shipped: 0 and 1 (Willamette, Foster), 2 (Northwood, Prestonia, Gallatin), 3 and 4 (Prescott,
// Nocona, Irwindale, Smithfield, Potomac), 6 (Cedar Mill, Presler, Dempsey). Model 5 was never released.
constexpr ModelSet kAllModels = model_bit(0) | model_bit(1) | model_bit(2) | model_bit(3) | model_bit(4) | model_bit(6);
constexpr ModelSet kModels0To2 = model_bit(0) | model_bit(1) | model_bit(2);
constexpr ModelSet kModels2Up = model_bit(2) | model_bit(3) | model_bit(4) | model_bit(6);
constexpr ModelSet kPrescottAndLater = model_bit(3) | model_bit(4) | model_bit(6);

// The default model (default_model.h says why Northwood).
constexpr unsigned kDefaultModel = NB_DEFAULT_MODEL;

constexpr bool model_in(ModelSet set, unsigned model) { return model < 8 && (set & model_bit(model)) != 0; }
constexpr bool model_exists(unsigned model) { return model_in(kAllModels, model); }

// A short name for messages ("Northwood (model 2)").
const char* model_codename(unsigned model);

// "0, 1, 2" style list for messages and documentation. Writes into buf (always NUL-terminated).
void format_model_set(ModelSet set, char* buf, unsigned buf_size);

}  // namespace netburst
