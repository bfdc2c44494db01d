/* A blocked double-precision matrix multiply instrumented with PAPI, the way an HPC code measures its kernels:
 * the low-level API compares the plain (i, j, k) loop nest with a cache-blocked one on the same presets, and the
 * high-level API (PAPI_hl_region_begin/end) measures a region whose counts PAPI writes as JSON when the program
 * ends. Run it on the emulated Pentium 4:
 *
 *   PAPI_EVENTS=PAPI_TOT_INS,PAPI_TOT_CYC,PAPI_FP_OPS,PAPI_L1_DCM PAPI_OUTPUT_DIRECTORY=out \
 *       netburst-run -- ./papi_matmul [N [BLOCK]]
 *
 * (`make demo` does, and prints the JSON.) On a real Pentium 4 the same binary counts on the hardware.
 * doc/papi-component.md explains the presets; the comments below say what to expect from them. */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_N 512

static double a[MAX_N][MAX_N], b[MAX_N][MAX_N], c[MAX_N][MAX_N];

/* The presets most people start with; on NetBurst they fit in one event set (doc/presets.md). */
static const char *const kEvents[] = {"PAPI_TOT_CYC", "PAPI_TOT_INS", "PAPI_FP_INS", "PAPI_L1_DCM", "PAPI_BR_MSP"};
enum { kNumEvents = sizeof kEvents / sizeof kEvents[0] };

static void fail(const char *what, int code)
{
	fprintf(stderr, "papi_matmul: %s: %s\n", what, PAPI_strerror(code));
	exit(1);
}

static void init(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			a[i][j] = (double)(i + j) / n;
			b[i][j] = (double)(2 * i - j) / n;
			c[i][j] = 0.0;
		}
}

/* c = a * b, the textbook loop nest: the inner loop walks b down a column, a new cache line every step. */
static void multiply_plain(int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			double sum = 0.0;
			for (int k = 0; k < n; k++)
				sum += a[i][k] * b[k][j];
			c[i][j] = sum;
		}
}

/* c = a * b by blocks of bs x bs, so that the blocks of b and c in use stay in the 8 KB L1 data cache
 * (three 16 x 16 blocks of doubles are 6 KB); the i-k-j order makes the inner loop walk rows. A Pentium 4 still
 * misses more than the block sizes suggest: the arrays are 2 MB apart, so row k of b and row i of c agree in
 * address bits 15:6 when k and i agree modulo 16, and its L1 cannot hold two such lines at once (64K aliasing;
 * padding MAX_N to 520 avoids it). */
static void multiply_blocked(int n, int bs)
{
	for (int ii = 0; ii < n; ii += bs)
		for (int kk = 0; kk < n; kk += bs)
			for (int jj = 0; jj < n; jj += bs)
				for (int i = ii; i < ii + bs && i < n; i++)
					for (int k = kk; k < kk + bs && k < n; k++) {
						const double aik = a[i][k];
						for (int j = jj; j < jj + bs && j < n; j++)
							c[i][j] += aik * b[k][j];
					}
}

static double trace(int n)
{
	double t = 0.0;
	for (int i = 0; i < n; i++)
		t += c[i][i];
	return t;
}

static void report(const char *name, const long long *v, int n)
{
	const double flops = 2.0 * n * n * n;
	printf("\n%s (%dx%d, %.0f floating-point operations)\n", name, n, n, flops);
	for (int e = 0; e < kNumEvents; e++)
		printf("  %-14s %15lld\n", kEvents[e], v[e]);
	printf("  instructions per cycle      %8.3f\n", (double)v[1] / (double)v[0]);
	printf("  FP uops per multiply-add    %8.3f  (one mulsd and one addsd: 2)\n", (double)v[2] / (flops / 2));
	printf("  L1 load misses per 1000 FP  %8.3f\n", 1000.0 * (double)v[3] / flops);
}

int main(int argc, char **argv)
{
	const int n = argc > 1 ? atoi(argv[1]) : 128;
	const int bs = argc > 2 ? atoi(argv[2]) : 16;
	long long plain[kNumEvents], blocked[kNumEvents];
	int set = PAPI_NULL, rc;

	if (n < 1 || n > MAX_N || bs < 1) {
		fprintf(stderr, "usage: %s [N [BLOCK]], 1 <= N <= %d\n", argv[0], MAX_N);
		return 2;
	}
	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		fail("PAPI_library_init", rc);
	printf("PAPI component 0: %s\n", PAPI_get_component_info(0)->description);

	/* --- Low-level API: one event set, both versions of the kernel --- */
	if ((rc = PAPI_create_eventset(&set)) != PAPI_OK)
		fail("PAPI_create_eventset", rc);
	for (int e = 0; e < kNumEvents; e++)
		if ((rc = PAPI_add_named_event(set, kEvents[e])) != PAPI_OK)
			fail(kEvents[e], rc);

	init(n);
	if ((rc = PAPI_start(set)) != PAPI_OK)
		fail("PAPI_start", rc);
	multiply_plain(n);
	if ((rc = PAPI_stop(set, plain)) != PAPI_OK)
		fail("PAPI_stop", rc);
	const double plain_trace = trace(n);

	init(n);
	if ((rc = PAPI_start(set)) != PAPI_OK)
		fail("PAPI_start", rc);
	multiply_blocked(n, bs);
	if ((rc = PAPI_stop(set, blocked)) != PAPI_OK)
		fail("PAPI_stop", rc);
	if (trace(n) != plain_trace) {
		fprintf(stderr, "papi_matmul: the blocked product differs from the plain one\n");
		return 1;
	}
	report("plain i-j-k", plain, n);
	char title[64];
	snprintf(title, sizeof title, "blocked %dx%d, i-k-j", bs, bs);
	report(title, blocked, n);
	printf("\nblocking removed %.1f%% of the L1 load misses and %.1f%% of the cycles\n",
	       100.0 * (1.0 - (double)blocked[3] / (double)plain[3]), 100.0 * (1.0 - (double)blocked[0] / (double)plain[0]));
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);

	/* --- High-level API: a named region; PAPI writes its counts (the events of $PAPI_EVENTS) as JSON --- */
	init(n);
	if ((rc = PAPI_hl_region_begin("blocked_matmul")) != PAPI_OK)
		fail("PAPI_hl_region_begin", rc);
	multiply_blocked(n, bs);
	if ((rc = PAPI_hl_region_end("blocked_matmul")) != PAPI_OK)
		fail("PAPI_hl_region_end", rc);
	printf("\nregion blocked_matmul measured with PAPI's high-level API (JSON written at exit)\n");
	printf("trace %.6f\n", trace(n));
	return 0;
}
