// The parameter sets. Sources (doc/emulator-model.md has the full table):
//   [ORM]  Intel, IA-32 Intel Architecture Optimization Reference Manual, Table 1-1 (cache parameters) and the
//          bus paragraph after it;
//   [T]    the thesis on Pentium 4 performance monitoring (doc/references.md: BTB, return stack, ITLB, DTLB, ROB,
//          load/store buffers, ports, latencies);
//   [S]    Sprunt, "Pentium 4 Performance-Monitoring Features", IEEE Micro 2002 (FP add latency);
//   [ITJ]  Hinton et al., ITJ 2001 (20-stage pipeline) and Boggs et al., ITJ 2004 (Prescott, 31 stages);
//   [XT]   ExtremeTech's Prescott architecture article (32 store buffers, 8 outstanding L1 misses, dedicated
//          integer multiplier, shifts on the fast ALUs);
//   [XB]   X-bit labs' NetBurst article, page 16 (L2-to-L1 bandwidth);
//   [AF]   Agner Fog, "The microarchitecture of Intel, AMD and VIA CPUs" (2020-03-08), section 5.2, "Trace cache
//          delivery rate" (the P4E's measured throughput of 8/3 uops per cycle);
//   [IL]   the InstLatX86 and MemLat dumps of InstLatx64/InstLatx64 (tests/fidelity/measured.tsv): Northwood
//          F/2/9 (Pentium 4 2.80 GHz), Prescott F/4/1 (Celeron D 2.53 GHz) and F/4/3 (Pentium 4 3.20 GHz, 2 MB).
// Values without a source are our assumptions and are marked so in the documentation.
#include "emulator/core/core_config.h"

namespace netburst::emu {

namespace {

void northwood(CoreConfig& c) {
    // The defaults in core_config.h are the Northwood values.
    c.l2_size = c.machine.model == 2 ? 512 * 1024 : 256 * 1024;  // [ORM]: 256 KB (Willamette), 512 KB (model 2)
    // The bus and memory are those of the measured Northwood, the Pentium 4 2.80 GHz with Hyper-Threading (F/2/9)
    // of [IL]: Intel sold that part (the 2.80C) only with the 800 MT/s bus, 200 MHz, so 14 core cycles per bus
    // clock. Its memory latency is 316 cycles (MemLat summary: a 16 MB ring at a 1 KB stride, a DTLB miss every
    // fourth load). The core's own part of a miss (L1 and L2 lookups, to the bus and back, the transfer, the DTLB
    // walk) is 77 cycles in the model, which leaves 17 bus clocks from the request to the first data: the chipset
    // and the DRAM of that machine (the suite's mem_latency gives 315). Willamette (0, 1) keeps this platform.
    c.bus_ratio = 14;
    c.memory_bus_clocks = 17;
}

void prescott(CoreConfig& c) {
    // 31 stages instead of 20 [ITJ]: the extra stages are spread over the same segments.
    c.fetch_to_alloc = 4;
    c.alloc_to_exec = 16;
    c.branch_resolve = 5;
    c.redirect = 6;
    c.store_buffers = 32;      // [XT]
    // Prescott enlarged the x87/SSE schedulers [XT] (Boggs et al., ITJ 2004) by an amount not published: their
    // entries are not bounded (A) (12 would make GMP's SSE2 popcount 9.5 c/l against 8; 16 or more, 9.0).
    c.fp_sched_entries = 0;
    c.tc_imm_bits = 17;        // [IL] F/4/1, F/4/3 #67 ADD r32, 0x8000 T 0.39, #68 0x10000 0.69 (CoreConfig)
    // [AF] 5.2: "The throughput on P4E has been measured to exactly 8/3 or 2.667 uops per clock cycle"; 3 per
    // cycle on the P4 (6 every two clocks). [IL] times streams of one single-uop instruction a little faster on
    // Prescott, T 0.35-0.36 (NOP #0, MOV r32, r32 #22, ADD r32, r32 #72 on F/4/1, F/4/3, F/4/A, F/6/2: 2.8-2.9 a
    // cycle) but slower than Northwood's 0.34 (F/2/9); GMP's Prescott loops (add_n, sub_n, rsh1aors_n: 2.3 uops a
    // cycle) need the lower rate. Where the loss is taken is our assumption (doc/emulator-model.md, Front end).
    c.deliver_period = 3;
    c.deliver_period_uops = 8;
    // [IL] F/4/3 #488 PUSH r64 + POP r64 5, #36 MOV r32, [m32] + MOV [m32], r32 6.3, the SIMD pairs (#801, #882,
    // #997) 20: less the load (4; 12 for SIMD) and the store data (1; 7 through the FP move unit), 0 to 1.3 cycles
    // are left; half a cycle. (The read-modify-write chain, #80, 5.1, is as short as push + pop because its
    // store data is the add's result as it is computed: uop_decode.cpp, Builder::store.)
    c.store_forward_ticks = 1;
    c.store_commit_stores = 6;  // [IL] F/4/1 #30 MOV [m32], r32: T 1.83, six stores every 11 cycles
    c.store_commit_cycles = 11;
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
    c.l2_size = c.machine.model == 3 ? 1024 * 1024 : 2 * 1024 * 1024;  // [ORM]: 1 MB (3, 4), 2 MB (4, 6)
    // [ORM] gives 18 (1 MB) and 20 (2 MB); we read them as load issue to fill, i.e. including the 4-cycle L1
    // check. With the replay loop and the L2's request slots (below) a pointer chase through the L2 reads 30
    // cycles load to use ([IL] MemLat F/4/1 and F/4/3: 28; AnandTech measured 23 and 27).
    c.l2_latency = c.machine.model == 3 ? 14 : 16;
    // [XB]: from the L2 into the L1, Prescott moves "about 1.5-2 times" less than Northwood's 32 bytes per cycle,
    // i.e. a 64-byte line every 3 to 4 cycles; the L2 takes a request every 3.5 cycles, the middle of that range.
    c.l2_request_ticks = 7;
    // The bus and memory of the Pentium 4 3.20 GHz with 2 MB L2 (F/4/3) of [IL], the part model 4 is: 800 MT/s
    // (200 MHz), 16 core cycles per bus clock. Its memory latency is 301 cycles (MemLat summary, the same chase as
    // for Northwood); the core's own part is 88 cycles in the model, which leaves 13 bus clocks (the suite gives
    // 296). Models 3 and 6 keep this platform.
    c.bus_ratio = 16;
    c.memory_bus_clocks = 13;
}

}  // namespace

CoreConfig make_core_config(const EmulatedMachine& machine) {
    CoreConfig c;
    c.machine = machine;
    if (machine.model >= 3) {
        prescott(c);
    } else {
        northwood(c);
    }
    if (machine.has_l3) {
        if (machine.model >= 3) {
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
