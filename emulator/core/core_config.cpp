// The parameter sets. Sources (doc/emulator-model.md has the full table):
//   [ORM]  Intel, IA-32 Intel Architecture Optimization Reference Manual, Table 1-1 (cache parameters) and the
//          bus paragraph after it;
//   [T]    the thesis of seed 000 (BTB, return stack, ITLB, DTLB, ROB, load/store buffers, ports, latencies);
//   [S]    Sprunt, IEEE Micro 2002 (seed 001: FP add latency);
//   [ITJ]  Hinton et al., ITJ 2001 (20-stage pipeline) and Boggs et al., ITJ 2004 (Prescott, 31 stages);
//   [XT]   ExtremeTech's Prescott architecture article (32 store buffers, 8 outstanding L1 misses, dedicated
//          integer multiplier, shifts on the fast ALUs).
// Values without a source are our assumptions and are marked so in the documentation.
#include "emulator/core/core_config.h"

namespace netburst::emu {

namespace {

void northwood(CoreConfig& c) {
    // The defaults in core_config.h are the Northwood values.
    c.l2_size = c.model == 2 ? 512 * 1024 : 256 * 1024;  // [ORM]: 256 KB (Willamette), 512 KB (model 2)
}

void prescott(CoreConfig& c) {
    // 31 stages instead of 20 [ITJ]: the extra stages are spread over the same segments.
    c.fetch_to_alloc = 4;
    c.alloc_to_exec = 16;
    c.branch_resolve = 5;
    c.redirect = 6;
    c.store_buffers = 32;      // [XT]
    c.fill_buffers = 8;        // [XT]
    c.wc_buffers = 8;          // [XT]
    c.fast_alu_ticks = 2;      // simple integer uops take a full cycle on Prescott (assumption, see the doc)
    c.shift_on_fast_alu = true;  // [XT]
    c.shift_latency = 1;
    c.imul_latency = 10;       // dedicated multiplier [XT]
    c.imul_busy = 1;
    c.l1_size = 16 * 1024;     // [ORM]
    c.l1_ways = 8;
    c.l1_alias_bits = 22;      // [ORM]: bits 21:6 (model 3; assumed for 4 and 6)
    c.l1_latency = 4;          // [ORM] 4/12
    c.l1_fp_latency = 12;
    c.l2_size = c.model == 3 ? 1024 * 1024 : 2 * 1024 * 1024;  // [ORM]: 1 MB (3, 4), 2 MB (4, 6)
    // [ORM] gives 18 (1 MB) and 20 (2 MB); we read them as load issue to fill, i.e. including the 4-cycle L1
    // check, which with the replay loop gives 25 cycles load to use (AnandTech measured 23 and 27).
    c.l2_latency = c.model == 3 ? 14 : 16;
    c.bus_ratio = 16;          // 3.2 GHz on an 800 MT/s (200 MHz) bus
}

}  // namespace

CoreConfig make_core_config(unsigned model, bool hyper_threading, bool with_l3) {
    CoreConfig c;
    c.model = model;
    c.hyper_threading = hyper_threading;
    c.has_l3 = with_l3;
    if (model >= 3) {
        prescott(c);
    } else {
        northwood(c);
    }
    if (with_l3) {
        if (model >= 3) {
            c.l3_size = 8 * 1024 * 1024;  // Potomac; latency assumed (the ORM table has no row for it)
            c.l3_latency = 30;
        } else {
            c.l3_size = 2 * 1024 * 1024;  // Gallatin [ORM]: up to 2 MB, 14/14
            c.l3_latency = 14;
        }
    }
    return c;
}

}  // namespace netburst::emu
