// The parameters of one NetBurst core. make_core_config() fills them per model; doc/emulator-model.md lists every
// value with its source. Times are in core cycles unless the name says ticks (half cycles).
#pragma once

#include "emulator/model/emulated_machine.h"

namespace netburst::emu {

struct CoreConfig {
    EmulatedMachine machine;  // the model, Hyper-Threading and the L3 decide the values below
    // The two logical processors run threads of one process (true) or two processes (false). It decides
    // whether equal linear addresses of the two threads are the same memory (caches, DTLB).
    bool shared_address_space = false;

    // --- Front end --------------------------------------------------------------------------------------------
    unsigned tc_lines = 2048;        // 12K uops in lines of 6
    unsigned tc_ways = 8;
    unsigned deliver_width = 3;      // uops per cycle from the trace cache (6 per 2 clocks)
    // A lower average delivery rate: deliver_period_uops uops in every deliver_period cycles (0: none), the last
    // cycle of each period having the shortfall fewer slots (CycleSlots). Prescott: 8 in 3 (make_core_config).
    unsigned deliver_period = 0;
    unsigned deliver_period_uops = 0;
    // The widest immediate (Instruction::imm_bits, as a signed number) a uop keeps in its own trace-cache slot; a
    // wider one takes a second delivery slot. [IL] ADD r32, imm T: NW-F29 #66 0x4000 0.34, #67 0x8000 0.68, #68
    // 0x10000 0.68 (16 bits fit, 17 do not); PR-F41 and F/4/3 #67 0x8000 0.39, #68 0x10000 0.69, #69 0x20000 0.69
    // (17 fit, 18 do not). 0.68 is two slots at three a cycle.
    unsigned tc_imm_bits = 16;
    unsigned rom_width = 3;          // uops per cycle from the microcode ROM
    unsigned rom_threshold = 4;      // instructions of more uops come from the microcode ROM
    unsigned rom_switch_cycles = 2;  // bubble when delivery switches between trace cache and ROM
    unsigned tc_miss_cycles = 4;     // from a trace-cache miss to the first code fetch request
    unsigned build_exit_cycles = 2;  // from the last built instruction to delivery from a found trace
    unsigned itlb_entries = 128;
    unsigned itlb_ways = 4;
    unsigned btb_entries = 4096;
    unsigned btb_ways = 4;
    unsigned rsb_entries = 16;

    // --- Pipeline depth -----------------------------------------------------------------------------------
    unsigned fetch_to_alloc = 3;   // trace-cache fetch to allocation (Drive, Alloc)
    unsigned alloc_to_exec = 10;   // allocation to the earliest execution (Rename, Que, Sch, Disp, RF)
    unsigned branch_resolve = 3;   // execution to the redirect signal (Flags, Branch check, Drive)
    unsigned redirect = 4;         // redirect to the first correct-path uop delivered (TC next IP, TC fetch)
    unsigned uop_queue_cycles = 8;  // how far delivery may run ahead of allocation when allocation stalls
    unsigned retire_delay = 2;     // completion to earliest retirement

    // --- Out-of-order resources (halved per thread while both logical processors are active) ----------------
    unsigned alloc_width = 3;
    unsigned retire_width = 3;
    unsigned rob_entries = 126;
    unsigned load_buffers = 48;
    unsigned store_buffers = 24;
    // Uop queues and schedulers (doc/emulator-model.md, "Uop queues and schedulers"): the allocator writes uops in
    // order into the memory queue (loads, store addresses) or the general queue (the rest) [HT]; each queue feeds
    // its schedulers in order, a uop leaving the queue only when its scheduler has a free entry, and holding that
    // entry until it is dispatched. A full queue stalls allocation. Queue depths 16 and 32 [XL]; scheduler entries:
    // "eight to twelve" [HT], the model takes 12 (8 makes GMP's popcount and hamdist loops 29 % too slow); the two
    // fast-ALU schedulers are one pool of twice that (A). 0 queue entries: none of it is modelled; 0 scheduler
    // entries: that scheduler is not bounded.
    unsigned mem_queue_entries = 16;
    unsigned gen_queue_entries = 32;
    unsigned sched_entries = 12;
    unsigned fp_sched_entries = 12;  // the slow ALU / general FP and the simple FP schedulers

    // --- Execution (latencies in cycles unless ticks) ------------------------------------------------------
    unsigned fast_alu_ticks = 1;       // double-speed ALUs: half a cycle
    bool shift_on_fast_alu = false;    // Prescott moved shifts and rotates to the fast ALUs
    unsigned shift_latency = 4;
    unsigned imul_latency = 14;
    unsigned imul_busy = 3;            // cycles between multiplies
    unsigned idiv_latency = 60;        // unpipelined
    unsigned x87_add_latency = 5;      // the FP adder: x87 arithmetic is timed as fadd (see the model doc)
    unsigned sse_add_latency = 4;
    unsigned x87_div_latency = 43;     // extended precision, unpipelined
    unsigned sse_div_sp_latency = 23;
    unsigned sse_div_dp_latency = 38;
    unsigned x87_complex_uops = 20;    // transcendental microcode flow
    unsigned x87_complex_latency = 150;
    unsigned mmx_latency = 2;
    unsigned simd_int_latency = 2;
    unsigned fp_move_latency = 6;
    unsigned wide_busy = 2;            // 128-bit operations use the 64-bit FP datapath twice

    // --- Memory ----------------------------------------------------------------------------------------------
    unsigned l1_size = 8 * 1024;
    unsigned l1_ways = 4;
    unsigned l1_line = 64;
    unsigned l1_alias_bits = 16;      // the L1 tells lines apart by linear address bits 15:6 only (64K aliasing)
    unsigned l1_latency = 2;          // integer loads
    unsigned l1_fp_latency = 9;       // x87/SSE loads
    bool l1_write_allocate = false;   // store misses do not allocate in the write-through L1 (assumption)
    unsigned fill_buffers = 4;        // L1 load misses outstanding
    unsigned l2_size = 512 * 1024;
    unsigned l2_ways = 8;
    unsigned l2_line = 128;           // two 64-byte sectors
    unsigned l2_latency = 7;
    unsigned l2_request_ticks = 4;    // the L2 takes a request every this many ticks: every other cycle, 32 bytes
                                      // per cycle into the L1 (thesis; X-bit labs measured it)
    unsigned l3_size = 0;
    unsigned l3_ways = 8;
    unsigned l3_latency = 14;
    unsigned dtlb_entries = 64;
    unsigned page_walk_cycles = 30;
    unsigned replay_cycles = 7;       // a uop that found its data missing comes round again after this
    unsigned replay_passes_max = 8;   // passes a missing load makes before waiting for its fill
    unsigned split_penalty = 7;       // a load or store crossing a 64-byte line is replayed once
    unsigned store_commit_delay = 2;  // retirement to the store's write into the caches
    // A forwarded load has its data this long after the store data, plus its own latency. Northwood: PUSH + POP
    // (InstLatX86 #488) 8.1, ADD [m32], r32 (#80) 8.8, the SIMD store-load pairs (#801, #882, #997) 21, less the
    // load (2; 9), the store data (0.5; 6 through the FP move unit) and the add: 5.6 to 6 cycles left; 6.
    unsigned store_forward_ticks = 12;
    // Stores leave the store buffer, in order, store_commit_stores every store_commit_cycles cycles: #30
    // MOV [m32], r32, T 1.75 on Northwood (four every seven cycles).
    unsigned store_commit_stores = 4;
    unsigned store_commit_cycles = 7;
    unsigned wc_buffers = 6;          // store misses to the L2 being filled (write-combining buffers)

    // --- Bus: the platform of the measured machine (core_config.cpp) ----------------------------------------
    unsigned bus_ratio = 14;          // core cycles per bus clock
    unsigned to_bus_cycles = 12;      // to the bus and back, inside the processor
    unsigned memory_bus_clocks = 17;  // from the request on the bus to the first data, chipset and DRAM included
    unsigned sector_bus_clocks = 2;   // one 64-byte sector on the quad-pumped 64-bit bus
    unsigned bsq_entries = 16;
    unsigned ioq_entries = 8;

    // --- Serialising and long operations -----------------------------------------------------------------
    unsigned syscall_uops = 20;
    unsigned syscall_cycles = 200;    // the fixed cost of a user-to-kernel transition
    unsigned microcode_uops = 12;
    unsigned microcode_cycles = 30;
    unsigned string_setup_uops = 4;
    unsigned string_iteration_uops = 4;
    unsigned pause_cycles = 10;       // hlt/pause: the front end of the logical processor idles
    unsigned smc_clear_cycles = 20;   // pipeline clear after a store hit code in the trace cache
    bool detect_smc = true;

    // --- Reporting ---------------------------------------------------------------------------------------------
    unsigned rom_record_cap = 48;     // uop records emitted for one microcode flow; the rest are timed only
    unsigned frontier_step = 32;      // emit cycle intervals (and move the frontier) every N cycles
};

// Willamette/Northwood (models 0-2), Prescott (3, 4, 6); has_l3 gives the Xeon MP of that generation.
CoreConfig make_core_config(const EmulatedMachine& machine);

}  // namespace netburst::emu
