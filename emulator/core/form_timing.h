// Latency and reciprocal throughput per instruction form (emulator/model/insn_form.h), where the class's single
// figure (core_config.h) is too coarse. form_timing.cpp holds the table and the source of every value.
#pragma once

#include <cstdint>

#include "emulator/core/ticks.h"
#include "emulator/model/insn_form.h"

namespace netburst::emu {

struct FormTiming {
    Tick latency;        // ticks (half cycles); 0: the class's figure
    std::uint8_t busy;   // cycles the unit stays occupied (the reciprocal throughput); 0: the class's figure.
                         // Only the units that hold a uop (the multiplier, the FP and MMX units, the divider) use it.
    std::uint8_t alu_busy;  // the same in ticks, for an integer uop the double-speed ALUs would otherwise take:
                            // 2 or more makes it a Unit::SlowAlu uop (uop_decode.cpp)
    Tick dest_latency;      // a form that merges into its destination (cmov): ticks from the destination's old
                            // value to the result, when the source is another register or memory; 0: none
    bool busy_alternates;   // the throughput is a whole number and a half of cycles, which a unit that holds
                            // whole cycles cannot take: it is held `busy` and `busy - 1` cycles alternately
    Tick high_latency;      // a one-operand multiply: ticks to its high half (dx, edx, rdx), which comes at a time
                            // of its own; the low half and the flags come at `latency`. 0: with the rest
    bool alu0_only = false; // a simple integer operation only double-speed ALU 0 executes (logic, not, neg)
    bool mmx_shift_unit = false;  // an MMX/SSE2 integer operation of the MMX shift unit (MMX_SHFT), not the ALU
};

// The timing of `form` on `model` (Willamette/Northwood 0-2, Prescott 3, 4, 6); both fields 0 for None and for a
// form the sources do not cover on that model.
FormTiming form_timing(InsnForm form, unsigned model);

}  // namespace netburst::emu
