/* Counts known work through PAPI on the emulated Pentium 4 (run under netburst-run).
 *
 *   known_work [-d user|kernel|all] [-n DELTA] KERNEL EVENT...
 *
 * Runs KERNEL (a loop of known_work.S, or n system calls) with N1 and with N2 = N1 + DELTA iterations, each inside
 * PAPI_start/PAPI_stop of one event set holding the EVENTs (presets or native names), and prints one line per
 * event, "EVENT COUNT", where COUNT is the difference between the two runs: the counts of exactly DELTA
 * iterations, since PAPI's own instructions between start and stop are the same in both runs. The loads of the
 * stride kernels go to two separate buffers, so neither run finds lines the other brought in.
 *
 * tests/integration/papi/papi_integration_test.cpp runs it and compares the counts with what the iterations do. */
#define _GNU_SOURCE
#include <papi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

void nb_alu_loop(long n);
void nb_load_loop(long n, void *p);
void nb_store_loop(long n, void *p);
void nb_sse_scalar_loop(long n);
void nb_sse_packed_loop(long n);
void nb_x87_loop(long n);
void nb_branch_loop(long n);
void nb_jump_loop(long n);
void nb_stride_loop(long n, void *p, long stride);

static long stride_of(const char *kernel)
{
	if (strncmp(kernel, "stride", 6) == 0)
		return atol(kernel + 6);
	return 0;
}

static void die(const char *what, int code)
{
	fprintf(stderr, "known_work: %s: %s\n", what, PAPI_strerror(code));
	exit(2);
}

/* Runs the kernel n times; `buffer` is the run's own memory for the stride kernels. */
static void run_kernel(const char *kernel, long n, void *buffer)
{
	static uint64_t word;
	long i;
	if (strcmp(kernel, "alu") == 0) nb_alu_loop(n);
	else if (strcmp(kernel, "load") == 0) nb_load_loop(n, &word);
	else if (strcmp(kernel, "store") == 0) nb_store_loop(n, &word);
	else if (strcmp(kernel, "sse_scalar") == 0) nb_sse_scalar_loop(n);
	else if (strcmp(kernel, "sse_packed") == 0) nb_sse_packed_loop(n);
	else if (strcmp(kernel, "x87") == 0) nb_x87_loop(n);
	else if (strcmp(kernel, "branch") == 0) nb_branch_loop(n);
	else if (strcmp(kernel, "jump") == 0) nb_jump_loop(n);
	else if (strcmp(kernel, "syscall") == 0) {
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
	} else if (stride_of(kernel) > 0) nb_stride_loop(n, buffer, stride_of(kernel));
	else {
		fprintf(stderr, "known_work: unknown kernel %s\n", kernel);
		exit(2);
	}
}

/* Reading 4 MB (twice the largest NetBurst L2, 64 times the DTLB's reach) leaves no line of a stride buffer in
 * the caches and none of its pages in the DTLB, so each measured run starts cold. */
static void evict_caches(void)
{
	static volatile char evict[4 << 20];
	size_t i;
	for (i = 0; i < sizeof evict; i += 64)
		(void)evict[i];
}

/* One measured run: the event set's counts over n iterations. */
static void measure(int set, const char *kernel, long n, void *buffer, long long *values)
{
	int rc;
	if (stride_of(kernel))
		evict_caches();
	rc = PAPI_start(set);
	if (rc != PAPI_OK) die("PAPI_start", rc);
	run_kernel(kernel, n, buffer);
	rc = PAPI_stop(set, values);
	if (rc != PAPI_OK) die("PAPI_stop", rc);
}

int main(int argc, char **argv)
{
	int domain = PAPI_DOM_USER | PAPI_DOM_KERNEL, set = PAPI_NULL, opt, i, rc, num_events;
	long delta = 0, n1, n2, stride;
	long long first[PAPI_MAX_PRESET_EVENTS], second[PAPI_MAX_PRESET_EVENTS];
	const char *kernel;
	void *buffers[2] = {NULL, NULL};

	while ((opt = getopt(argc, argv, "d:n:")) != -1) {
		if (opt == 'd') domain = strcmp(optarg, "user") == 0 ? PAPI_DOM_USER :
					 strcmp(optarg, "kernel") == 0 ? PAPI_DOM_KERNEL : PAPI_DOM_ALL;
		else if (opt == 'n') delta = atol(optarg);
		else return 2;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: known_work [-d user|kernel|all] [-n DELTA] KERNEL EVENT...\n");
		return 2;
	}
	kernel = argv[optind];
	stride = stride_of(kernel);
	if (delta == 0) delta = stride ? 10000 : 100000;
	n1 = delta / 100 > 10 ? delta / 100 : 10;
	n2 = n1 + delta;

	/* Pages are mapped and written before anything is counted: page faults are not part of the work. */
	if (stride) {
		for (i = 0; i < 2; i++) {
			size_t size = (size_t)(i ? n2 : n1) * (size_t)stride + 4096;
			buffers[i] = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (buffers[i] == MAP_FAILED) return 2;
			memset(buffers[i], 1, size);
		}
	}

	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) die("PAPI_library_init", PAPI_EINVAL);
	if ((rc = PAPI_create_eventset(&set)) != PAPI_OK) die("PAPI_create_eventset", rc);
	if ((rc = PAPI_assign_eventset_component(set, 0)) != PAPI_OK) die("PAPI_assign_eventset_component", rc);
	if ((rc = PAPI_set_opt(PAPI_DOMAIN, &(PAPI_option_t){.domain = {.eventset = set, .domain = domain}})) != PAPI_OK)
		die("PAPI_set_opt(PAPI_DOMAIN)", rc);
	num_events = argc - optind - 1;
	for (i = 0; i < num_events; i++) {
		rc = PAPI_add_named_event(set, argv[optind + 1 + i]);
		if (rc != PAPI_OK) {
			fprintf(stderr, "known_work: cannot add %s: %s\n", argv[optind + 1 + i], PAPI_strerror(rc));
			return 3;
		}
	}

	/* A first measurement warms PAPI's path (lazy symbol binding, first-use allocations), the kernel's code and
	   the predictors; its counts are dropped (the stride kernels evict the caches before every run). */
	measure(set, kernel, n1, buffers[0], first);
	measure(set, kernel, n1, buffers[0], first);
	measure(set, kernel, n2, buffers[1], second);

	printf("kernel %s iterations %ld\n", kernel, delta);
	for (i = 0; i < num_events; i++)
		printf("%s %lld\n", argv[optind + 1 + i], second[i] - first[i]);
	PAPI_shutdown();
	return 0;
}
