/* PAPI's hardware overflow on the emulated Pentium 4 (doc/sampling.md, "PAPI's hardware overflow"): the counter's
 * overflow interrupt reaches the handler with the instruction the model's interrupt returns to, and an overflow
 * vector naming exactly the events whose counters overflowed; PAPI_profil builds its histogram from them. Prints
 * "ok NAME" or "FAIL NAME: why" per check, and "sample +OFFSET: COUNT" lines for the addresses in the loop;
 * papi_integration_test.cpp runs it, and compares those with netburst-run record's samples of "--loop-only N". */
#define _GNU_SOURCE
#include <papi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "check.h"

void nb_alu_loop(long n);
void nb_sse_packed_loop(long n);
void nb_packed_block_loop(long n);
void nb_packed_block_loop_end(void);

#define MAX_CALLS 4096
static volatile int calls;
static uintptr_t addresses[MAX_CALLS];
static uintptr_t interrupted[MAX_CALLS]; /* the program counter in the signal's context */
static long long vectors[MAX_CALLS];

static void handler(int set, void *address, long long vector, void *context)
{
	(void)set;
	if (calls < MAX_CALLS) {
		addresses[calls] = (uintptr_t)address;
		interrupted[calls] = (uintptr_t)((ucontext_t *)context)->uc_mcontext.gregs[REG_RIP];
		vectors[calls] = vector;
	}
	calls++;
}

/* Overflow on PAPI_VEC_DP (packed double-precision uops retired) every `period` events over n iterations of
 * nb_packed_block_loop, whose addpd is the only packed double-precision work of the program (the handler and PAPI
 * have none, so each overflow is an addpd and the period stays in step with the loop). Each handler call's address
 * and the program counter its signal interrupted are noted as offsets from the loop's start. */
#define LOOP_BYTES 128
static int offset_of(uintptr_t address)
{
	if (address < (uintptr_t)nb_packed_block_loop || address >= (uintptr_t)nb_packed_block_loop_end)
		return -1;
	return (int)(address - (uintptr_t)nb_packed_block_loop);
}

static void exact_address(void)
{
	const char *events[] = {"PAPI_VEC_DP"};
	const int period = 10007;
	int set = new_set(events, 1), i, rc, n, in_loop = 0, at_signal = 0, distinct = 0;
	int hits[LOOP_BYTES];
	long long count;

	memset(hits, 0, sizeof hits);
	calls = 0;
	rc = PAPI_overflow(set, PAPI_VEC_DP, period, 0, handler);
	CHECK("overflow_hardware_set", rc == PAPI_OK, "%s", PAPI_strerror(rc));
	PAPI_start(set);
	nb_packed_block_loop(2000000);
	PAPI_stop(set, &count);
	PAPI_overflow(set, PAPI_VEC_DP, 0, 0, handler);
	n = calls < MAX_CALLS ? calls : MAX_CALLS;
	for (i = 0; i < n; i++) {
		const int at = offset_of(addresses[i]);
		if (at < 0)
			continue;
		in_loop++;
		if (hits[at]++ == 0)
			distinct++;
		if (interrupted[i] == addresses[i])
			at_signal++;
	}
	printf("address: %d calls for %lld events, %d in the loop at %d instructions, %d at the signal's pc\n", n,
	       count, in_loop, distinct, at_signal);
	for (i = 0; i < LOOP_BYTES; i++)
		if (hits[i])
			printf("sample +%d: %d\n", i, hits[i]);
	/* Hardware overflow misses no period: one call per period, less at most the one still on its way at the stop.
	 * The period is a tenth of a Valgrind time slice (100,000 blocks, here iterations), at whose end Valgrind
	 * would otherwise deliver a signal. */
	CHECK("one_call_per_period", n >= count / period - 1 && n <= count / period, "%d calls for %lld events", n,
	      count);
	CHECK("samples_in_the_loop", in_loop == n && n >= 180, "%d of %d in the loop", in_loop, n);
	/* Every overflow is an addpd: the model's interrupt returns to the instruction that retires the skid's cycles
	 * after the next one, the same one or two of the body each time (the driver compares them with what
	 * netburst-run record's sampler finds with the same model). */
	CHECK("few_instructions", distinct >= 1 && distinct <= 2, "%d instructions", distinct);
	/* Valgrind delivered each signal later, at a block's start: the address is not where the signal came. */
	CHECK("not_the_signal_point", at_signal == 0, "%d of %d at the interrupted pc", at_signal, n);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
}

/* Two events interrupting: every call's vector names exactly the events whose counters overflowed, so each event
 * gets one call per period, and none for the other's overflows (each interrupt names every counter whose OVF flag
 * is set, the other's too while its handler has not run). */
static void exact_vector(void)
{
	const char *events[] = {"PAPI_TOT_INS", "PAPI_BR_INS"};
	const int ins_period = 100003, br_period = 25013;
	int set = new_set(events, 2), i, k, n, index[2], per_event[2] = {0, 0}, unknown = 0, both = 0;
	long long v[2];

	calls = 0;
	PAPI_overflow(set, PAPI_TOT_INS, ins_period, 0, handler);
	PAPI_overflow(set, PAPI_BR_INS, br_period, 0, handler);
	PAPI_start(set);
	nb_alu_loop(4000000); /* 16 million instructions, 4 million branches */
	PAPI_stop(set, v);
	for (i = 0; i < calls && i < MAX_CALLS; i++) {
		n = 2;
		if (PAPI_get_overflow_event_index(set, vectors[i], index, &n) != PAPI_OK || n < 1) {
			unknown++;
			continue;
		}
		if (n == 2)
			both++;
		for (k = 0; k < n; k++)
			per_event[index[k]]++;
	}
	printf("vectors: %d calls, %d for %lld instructions, %d for %lld branches, %d naming both\n", calls,
	       per_event[0], v[0], per_event[1], v[1], both);
	CHECK("vectors_name_set_events", unknown == 0, "%d vectors named no event of the set", unknown);
	CHECK("vector_instructions_exact", per_event[0] >= v[0] / ins_period - 1 && per_event[0] <= v[0] / ins_period,
	      "%d for %lld instructions", per_event[0], v[0]);
	CHECK("vector_branches_exact", per_event[1] >= v[1] / br_period - 1 && per_event[1] <= v[1] / br_period,
	      "%d for %lld branches", per_event[1], v[1]);
	for (i = 0; i < 2; i++)
		PAPI_overflow(set, i ? PAPI_BR_INS : PAPI_TOT_INS, 0, 0, handler);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
}

/* PAPI_profil through the hardware path, on PAPI_VEC_DP in nb_sse_packed_loop (a one-block loop: addpd, dec,
 * jnz): one bucket per two bytes; every overflow is an addpd of a like iteration, so all samples fall in one
 * bucket, one per period. */
static void profile(void)
{
	const char *events[] = {"PAPI_VEC_DP"};
	int set = new_set(events, 1), i, rc, used = 0;
	unsigned short buckets[64];
	long long v, samples = 0;

	memset(buckets, 0, sizeof buckets);
	rc = PAPI_profil(buckets, sizeof buckets, (vptr_t)nb_sse_packed_loop, 65536, set, PAPI_VEC_DP, 10007,
			 PAPI_PROFIL_POSIX | PAPI_PROFIL_BUCKET_16);
	CHECK("profil_hardware_set", rc == PAPI_OK, "%s", PAPI_strerror(rc));
	PAPI_start(set);
	nb_sse_packed_loop(2000000);
	PAPI_stop(set, &v);
	PAPI_profil(buckets, sizeof buckets, (vptr_t)nb_sse_packed_loop, 65536, set, PAPI_VEC_DP, 0, PAPI_PROFIL_POSIX);
	for (i = 0; i < 64; i++) {
		samples += buckets[i];
		used += buckets[i] != 0;
	}
	printf("profil: %lld samples in %d buckets for %lld instructions\n", samples, used, v);
	CHECK("profil_one_sample_per_period", samples >= v / 10007 - 1 && samples <= v / 10007,
	      "%lld samples for %lld instructions", samples, v);
	CHECK("profil_one_bucket", used == 1, "%d buckets used", used);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
}

int main(int argc, char **argv)
{
	const PAPI_component_info_t *info;

	/* The loop alone, for netburst-run record to sample with the same model (the driver compares). */
	if (argc == 3 && strcmp(argv[1], "--loop-only") == 0) {
		nb_packed_block_loop(atol(argv[2]));
		printf("loop %p\n", (void *)nb_packed_block_loop);
		return 0;
	}
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		printf("FAIL library_init\n");
		return 1;
	}
	info = PAPI_get_component_info(0);
	CHECK("hardware_intr", info != NULL && info->hardware_intr == 1, "the component does not interrupt");
	exact_address();
	exact_vector();
	profile();
	PAPI_shutdown();
	return failures ? 1 : 0;
}
