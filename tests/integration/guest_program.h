/* For the integration tests' guest programs (plain C, so that no sanitizer or C++ runtime of the host build
 * gets in Valgrind's way): apply an event program that netburst_run_test.cpp made with the allocator and the
 * encoder (the file netburst-run hands the tool, emulator/protocol/program_file.h) through the MSR channel, as the
 * PAPI component does, and measure a loop of asm/loops.S between two exact reads. */
#ifndef GUEST_PROGRAM_H
#define GUEST_PROGRAM_H

#include <stdint.h>

#include "emulator/protocol/netburst_client.h"

#define GUEST_MAX_EVENTS 64
#define GUEST_MAX_WRITES 128

struct guest_program {
    unsigned num_writes[2];
    uint32_t msr[2][GUEST_MAX_WRITES];
    uint64_t value[2][GUEST_MAX_WRITES];
    unsigned num_events;
    unsigned event_lp[GUEST_MAX_EVENTS];
    unsigned event_counter[GUEST_MAX_EVENTS];
};

/* Reads the program file; returns 0 on success. */
int guest_read_program(const char* path, struct guest_program* p);
/* Writes logical processor lp's part of the program to the emulated PMU (of the calling thread); returns 0 when
 * every wrmsr succeeded. */
int guest_apply_program(const struct guest_program* p, unsigned lp);
/* The calling thread's logical processor (0 when not emulated). */
unsigned guest_lp(void);

typedef uint64_t (*guest_loop_fn)(uint64_t n, void* buffer, const uint64_t* requests);
/* The loops of asm/loops.S by name, or NULL. */
guest_loop_fn guest_find_loop(const char* name);
extern const char* const guest_loop_names[];  /* NULL-terminated */

/* Runs loop(n) between two RDPMC reads of `counter` (or, with counter < 0, two harmless requests) and returns the
 * counter's advance (40-bit). */
uint64_t guest_measure(guest_loop_fn loop, uint64_t n, int counter, uint64_t* buffer);

#endif
