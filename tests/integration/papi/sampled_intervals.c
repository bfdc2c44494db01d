/* papi_netburst_get_intervals (papi_netburst.h) on the emulator: each region's counts and the half-widths of their
 * 99.7 % confidence intervals, printed "REGION CYCLES CYCLES_HALF INSTRUCTIONS INSTRUCTIONS_HALF" for
 * papi_integration_test.cpp, which runs the program under --timing=exact and --timing=sampled and compares.
 *
 * Regions, each started with PAPI_start: "short" (about 2,000 instructions, inside the timed head that follows a
 * counter access, so exact in both tiers) and "long" (about 12 million instructions of a loop with L1 misses, so
 * estimated in the sampled tier). Then the call on a set that is not one. */
#include <papi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "papi_netburst.h"

static double data[64 * 1024];

static double work(long steps)
{
	double sum = 0;
	for (long i = 0; i < steps; ++i) {
		data[(i * 67) % (64 * 1024)] += 1.0;  /* strides over 512 KB: L1 misses, L2 hits */
		sum += data[(i * 13) % 1024] * 0.5;
	}
	return sum;
}

static void check(int rc, const char *what)
{
	if (rc != PAPI_OK) {
		printf("FAIL %s: %s\n", what, PAPI_strerror(rc));
		exit(1);
	}
}

static void region(int set, const char *name, long steps)
{
	long long values[2], halves[2];
	check(PAPI_start(set), "PAPI_start");
	const double sum = work(steps);
	check(PAPI_stop(set, values), "PAPI_stop");
	check(papi_netburst_get_intervals(set, halves), "papi_netburst_get_intervals");
	printf("%s %lld %lld %lld %lld\n", name, values[0], halves[0], values[1], halves[1]);
	if (sum < 0)
		printf("unreachable\n");
}

int main(void)
{
	int set = PAPI_NULL;
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		printf("FAIL PAPI_library_init\n");
		return 1;
	}
	check(PAPI_create_eventset(&set), "PAPI_create_eventset");
	check(PAPI_add_event(set, PAPI_TOT_CYC), "PAPI_add_event(PAPI_TOT_CYC)");
	check(PAPI_add_event(set, PAPI_TOT_INS), "PAPI_add_event(PAPI_TOT_INS)");
	for (long i = 0; i < 64 * 1024; ++i)
		data[i] = (double)(i % 7);
	region(set, "short", 100);
	region(set, "long", 1000000);
	long long halves[2];
	printf("wrong_set %d\n", papi_netburst_get_intervals(set + 1000, halves) == PAPI_ENOEVST);
	return 0;
}
