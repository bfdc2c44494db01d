/* PEBS through PAPI on the emulated Pentium 4 (doc/sampling.md, "PEBS through PAPI"): an event with :precise=1
 * and PAPI_overflow samples by PEBS, and every handler call's address is the instruction that caused the event.
 *
 * The program is Sprunt's l1_miss (examples/l1_miss.c) in small: a target load `mov (%rax),%rax` walks a ring of
 * eight pointers 8 KB apart, one set of the 8 KB four-way L1, so that it misses every time, between two blocks of
 * loads that always hit. The target load carries a global label, so the test knows its address without guessing.
 * Checks, each printed as "ok NAME" or "FAIL NAME: why" (papi_integration_test.cpp runs it):
 *   - every handler address is the target load's, and the vector names the :precise event;
 *   - one handler call per period of the event's final count;
 *   - the records' RAX (the target load's base register at its start) are the ring's eight addresses, 8 KB apart;
 *   - every field of every record is valid and holds the register's value at the target load's start: constants in
 *     RBX, RSI, RDI, R8-R14, the hit blocks' last load in RCX, the hit blocks' base in R15, the loop's count in RDX
 *     (so that RDX and RAX agree on the iteration), RBP and RSP as the loop found them, and the flags of the `cmp`
 *     just before the load;
 *   - events that cannot drive PEBS, and a second :precise event, are refused with an explanation;
 *   - PAPI_profil with PAPI_PROFIL_DATA_EAR fills buckets by data address: the ring's lines and no other.
 *
 * The run is eight chunks of CHUNK target loads, each counted from zero (PAPI_accum resets the set): CHUNK is one
 * more than a multiple of eight, so each chunk's samples fall on the ring one address further on, and the eight
 * chunks see all eight addresses whatever else the program's handler adds to the count.
 *
 * Usage: pebs_overflow [--thread]   --thread: the checks run in a second thread, which `netburst-run --ht` puts on
 * logical processor 1 (PEBS on IQ_COUNTER5). */
#define _GNU_SOURCE
#include <papi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "papi_netburst.h"

#define HITS_PER_BLOCK 64
#include "l1_miss_ring.h" /* examples/: RING, STRIDE, ring, hot, HIT_BLOCK, l1_miss_setup */
#define PERIOD 1001 /* prime to the ring's eight, so that the samples visit every address */
#define EVENT "1stL_cache_load_miss_retired:precise=1"
#define CHUNKS 8
#define CHUNK 5001

/* The target load's address: the label is in walk's assembly, which is emitted once (noinline, noclone). */
extern const char nb_pebs_target_load[];

/* What the registers hold at the target load's start (wrong_fields checks the records); R10: the chunk. */
#define K_RBX 0x0b0b0b0b0b0b0b0bull
#define K_RSI 0x5151515151515151ull
#define K_RDI 0xd1d1d1d1d1d1d1d1ull
#define K_R8 5ull /* cmp %r8, %r9 just before the load: 3 - 5 borrows */
#define K_R9 3ull
#define K_R11 0x1111111111111111ull
#define K_R12 0x1212121212121212ull
#define K_R13 0x1313131313131313ull
#define K_R14 0x1414141414141414ull
/* The flags of 3 - 5 (0xff...fe): CF, AF and SF set; PF (seven bits set in the low byte), ZF and OF clear. The
 * mask adds DF (clear: the ABI's default), IF (set: user code runs with interrupts enabled) and bit 1 (always 1). */
#define FLAGS_MASK 0xed7ull
#define FLAGS_OF_CMP 0x293ull
/* The last load of a hit block reads hot[960..963], which l1_miss_setup fills with their indices. */
#define K_RCX 0xc3c2c1c0ull

/* The loop's RBP and RSP (walk writes them; they hold still in the loop), and each chunk's. */
static uint64_t loop_rbp, loop_rsp;
static uint64_t chunk_rbp[CHUNKS], chunk_rsp[CHUNKS];

/* `loads` steps along the ring from p; returns where they end. Chunk `chunk` (R10 holds it). */
__attribute__((noinline, noclone)) static char *walk(char *p, long loads, long chunk)
{
	register long inner __asm__("rdx") = loads;
	register uint64_t r8 __asm__("r8") = K_R8, r9 __asm__("r9") = K_R9, r10 __asm__("r10") = (uint64_t)chunk;
	register uint64_t r11 __asm__("r11") = K_R11, r12 __asm__("r12") = K_R12, r13 __asm__("r13") = K_R13;
	register uint64_t r14 __asm__("r14") = K_R14;
	register char *r15 __asm__("r15") = hot;
	__asm__ volatile("movq %%rbp, %[bp]\n\t"
			 "movq %%rsp, %[sp]\n\t"
			 "1:\n\t" HIT_BLOCK
			 "cmpq %[r8], %[r9]\n\t"
			 ".globl nb_pebs_target_load\n"
			 "nb_pebs_target_load:\n\t"
			 "movq (%[p]), %[p]\n\t" HIT_BLOCK
			 "decq %[inner]\n\t"
			 "jnz 1b\n\t"
			 : [p] "+a"(p), [inner] "+r"(inner), [bp] "=m"(loop_rbp), [sp] "=m"(loop_rsp)
			 : [hot] "r"(r15), "b"(K_RBX), "S"(K_RSI), "D"(K_RDI), [r8] "r"(r8), [r9] "r"(r9), "r"(r10),
			   "r"(r11), "r"(r12), "r"(r13), "r"(r14)
			 : "ecx", "memory", "cc");
	return p;
}

#define MAX_CALLS 4096
static volatile int calls;
static uintptr_t addresses[MAX_CALLS];
static long long vectors[MAX_CALLS];
static struct papi_netburst_pebs_sample samples[MAX_CALLS];
static int sample_status[MAX_CALLS];

static void handler(int set, void *address, long long vector, void *context)
{
	(void)context;
	if (calls < MAX_CALLS) {
		addresses[calls] = (uintptr_t)address;
		vectors[calls] = vector;
		sample_status[calls] = papi_netburst_get_pebs_sample(set, &samples[calls]);
	}
	calls++;
}

/* PAPI's error output of adding `name` to `set`, in text. */
static int add_explained(int set, const char *name, char *text, size_t size)
{
	char path[] = "/tmp/nb-pebs-XXXXXX";
	int fd = mkstemp(path), saved = dup(2), rc;
	FILE *f;

	text[0] = '\0';
	PAPI_set_debug(PAPI_VERB_ECONT);
	fflush(stderr);
	dup2(fd, 2);
	rc = PAPI_add_named_event(set, name);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	PAPI_set_debug(PAPI_QUIET);
	f = fopen(path, "r");
	if (f) {
		size_t len = fread(text, 1, size - 1, f);
		text[len] = '\0';
		fclose(f);
	}
	unlink(path);
	close(fd);
	return rc;
}

static void refusals(void)
{
	char text[4096];
	int set = PAPI_NULL, rc;

	PAPI_create_eventset(&set);
	rc = add_explained(set, "mispred_branch_retired:precise=1", text, sizeof text);
	CHECK("not_pebs_capable_refused", rc != PAPI_OK, "adding mispred_branch_retired:precise=1 returned %d", rc);
	CHECK("not_pebs_capable_explained",
	      strstr(text, "cannot drive PEBS") && strstr(text, "1stL_cache_load_miss_retired"),
	      "PAPI's error output was: %s", text);
	rc = add_explained(set, "1stL_cache_load_miss_retired:precise=1", text, sizeof text);
	CHECK("first_precise_added", rc == PAPI_OK, "returned %d: %s", rc, text);
	rc = add_explained(set, "memory_loads:precise=1", text, sizeof text);
	CHECK("second_precise_is_ECNFLCT", rc == PAPI_ECNFLCT, "adding a second :precise event returned %d", rc);
	/* IQ_COUNTER4 on logical processor 0, IQ_COUNTER5 on 1: the test driver reads which. */
	printf("second precise refused: %s%s", text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
	CHECK("second_precise_explained", strstr(text, "PEBS has one counter") && strstr(text, "MSR_IQ_COUNTER"),
	      "PAPI's error output was: %s", text);
	CHECK("second_precise_keeps_the_set", PAPI_num_events(set) == 1, "the set has %d events",
	      PAPI_num_events(set));
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
}

/* The fields of record `s` that do not hold what the registers held at the target load's start, as a bit mask of
 * papi_netburst_pebs_field. `first` is the ring's first address. */
static uint32_t wrong_fields(const struct papi_netburst_pebs_sample *s, uintptr_t first)
{
	const uint64_t *f = s->field;
	const uint64_t chunk = f[PAPI_NETBURST_R10], left = f[PAPI_NETBURST_EDX];
	/* Iteration CHUNK - left of chunk `chunk`: the ring address of load number chunk * CHUNK + CHUNK - left. */
	const uint64_t step = (chunk * CHUNK + CHUNK - left) % RING;
	const uint64_t rbp = chunk < CHUNKS ? chunk_rbp[chunk] : 0, rsp = chunk < CHUNKS ? chunk_rsp[chunk] : 0;
	const struct {
		int field;
		uint64_t value;
	} expected[] = {
		{PAPI_NETBURST_EIP, (uintptr_t)nb_pebs_target_load},
		{PAPI_NETBURST_EAX, first + step * STRIDE},
		{PAPI_NETBURST_EBX, K_RBX},
		{PAPI_NETBURST_ECX, K_RCX},
		{PAPI_NETBURST_ESI, K_RSI},
		{PAPI_NETBURST_EDI, K_RDI},
		{PAPI_NETBURST_EBP, rbp},
		{PAPI_NETBURST_ESP, rsp},
		{PAPI_NETBURST_R8, K_R8},
		{PAPI_NETBURST_R9, K_R9},
		{PAPI_NETBURST_R11, K_R11},
		{PAPI_NETBURST_R12, K_R12},
		{PAPI_NETBURST_R13, K_R13},
		{PAPI_NETBURST_R14, K_R14},
		{PAPI_NETBURST_R15, (uintptr_t)hot},
	};
	uint32_t wrong = 0;
	size_t i;

	for (i = 0; i < sizeof expected / sizeof expected[0]; i++)
		if (f[expected[i].field] != expected[i].value)
			wrong |= 1u << expected[i].field;
	if ((f[PAPI_NETBURST_EFLAGS] & FLAGS_MASK) != FLAGS_OF_CMP)
		wrong |= 1u << PAPI_NETBURST_EFLAGS;
	if (chunk >= CHUNKS)
		wrong |= 1u << PAPI_NETBURST_R10;
	if (left < 1 || left > CHUNK)
		wrong |= 1u << PAPI_NETBURST_EDX;
	return wrong;
}

static int compare_u64(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void precise_samples(void)
{
	const char *events[] = {EVENT};
	int set = new_set(events, 1), code = 0, rc, i, n, on_load = 0, vector_ok = 0, sampled = 0, rax_ok = 0;
	int distinct = 0, spaced = 1, all_valid = 0, registers_ok = 0, counts_move = 0;
	uint32_t wrong = 0;
	long long count = 0, chunk_count, expected_calls = 0;
	uint64_t rax[MAX_CALLS];
	char *p;
	char *first = l1_miss_setup();
	const uintptr_t target = (uintptr_t)nb_pebs_target_load;

	PAPI_event_name_to_code(EVENT, &code);
	rc = PAPI_overflow(set, code, PERIOD, 0, handler);
	CHECK("overflow_set", rc == PAPI_OK, "PAPI_overflow returned %d (%s)", rc, PAPI_strerror(rc));
	PAPI_start(set);
	p = first;
	for (i = 0; i < CHUNKS; i++) {
		p = walk(p, CHUNK, i);
		chunk_rbp[i] = loop_rbp;
		chunk_rsp[i] = loop_rsp;
		/* A blocking call lets Valgrind deliver the last interrupt's signal before the count is taken. */
		usleep(1000);
		chunk_count = 0;
		if (i + 1 < CHUNKS)
			PAPI_accum(set, &chunk_count);
		else
			PAPI_stop(set, &chunk_count);
		count += chunk_count;
		expected_calls += chunk_count / PERIOD;
	}
	if (p != first)
		abort(); /* CHUNKS * CHUNK is a multiple of the ring's eight */
	n = calls < MAX_CALLS ? calls : MAX_CALLS;

	for (i = 0; i < n; i++) {
		on_load += addresses[i] == target;
		vector_ok += vectors[i] == 1;
		if (sample_status[i] == PAPI_OK && samples[i].field[PAPI_NETBURST_EIP] == addresses[i] &&
		    (samples[i].valid & (1u << PAPI_NETBURST_EAX))) {
			rax[sampled++] = samples[i].field[PAPI_NETBURST_EAX];
			rax_ok += samples[i].has_data_address && samples[i].data_address == samples[i].field[PAPI_NETBURST_EAX];
		}
		if (sample_status[i] != PAPI_OK)
			continue;
		all_valid += samples[i].valid == (1u << PAPI_NETBURST_PEBS_FIELDS) - 1;
		registers_ok += wrong_fields(&samples[i], (uintptr_t)first) == 0;
		wrong |= wrong_fields(&samples[i], (uintptr_t)first);
		/* The loop's count: a different RDX at every sample of a chunk. */
		counts_move += i > 0 && samples[i - 1].field[PAPI_NETBURST_R10] == samples[i].field[PAPI_NETBURST_R10] &&
			       samples[i - 1].field[PAPI_NETBURST_EDX] > samples[i].field[PAPI_NETBURST_EDX];
	}
	printf("%lld events for %d target loads, period %d, %d handler calls, %d at the target load %#lx\n", count,
	       CHUNKS * CHUNK, PERIOD, calls, on_load, (unsigned long)target);
	CHECK("samples_taken", calls > 0, "no handler call");
	CHECK("every_address_is_the_load", n > 0 && on_load == n, "%d of %d handler addresses are the target load",
	      on_load, n);
	CHECK("vector_names_the_event", vector_ok == n, "%d of %d vectors are 0x1", vector_ok, n);
	CHECK("one_call_per_period", calls == expected_calls,
	      "%d handler calls for %lld events in %d chunks (expected %lld)", calls, count, CHUNKS, expected_calls);
	/* Every target load misses; the program's handler (PAPI's dispatch, this handler) misses a few more. */
	CHECK("count_is_the_misses", count >= CHUNKS * CHUNK && count <= CHUNKS * CHUNK * 21 / 20,
	      "%lld events for %d target loads", count, CHUNKS * CHUNK);
	CHECK("records_have_rax", sampled == n, "%d of %d samples carry the record's EAX field", sampled, n);
	CHECK("rax_is_the_data_address", rax_ok == sampled, "%d of %d records' RAX is their data address", rax_ok,
	      sampled);
	CHECK("every_field_valid", n > 0 && all_valid == n, "%d of %d records have every valid bit set (%#x in the last)",
	      all_valid, n, n > 0 ? samples[n - 1].valid : 0);
	CHECK("registers_are_the_instructions", n > 0 && registers_ok == n,
	      "%d of %d records hold the registers at the target load's start; fields wrong in some (bit per field): "
	      "%#x",
	      registers_ok, n, wrong);
	CHECK("rdx_counts_the_loop", counts_move > 0, "no two samples of a chunk with a falling RDX");
	if (n > 0)
		printf("last record: eflags %#lx rdx %lu r10 %lu rsp %#lx\n",
		       (unsigned long)samples[n - 1].field[PAPI_NETBURST_EFLAGS],
		       (unsigned long)samples[n - 1].field[PAPI_NETBURST_EDX],
		       (unsigned long)samples[n - 1].field[PAPI_NETBURST_R10],
		       (unsigned long)samples[n - 1].field[PAPI_NETBURST_ESP]);

	/* The RAX values: the ring's eight addresses, 8 KB apart, with the ring's low bits. */
	qsort(rax, (size_t)sampled, sizeof rax[0], compare_u64);
	for (i = 0; i < sampled; i++) {
		if (i > 0 && rax[i] == rax[i - 1])
			continue;
		if (distinct > 0 && rax[i] != rax[i - 1] + STRIDE)
			spaced = 0;
		printf("rax %#lx\n", (unsigned long)rax[i]);
		distinct++;
	}
	CHECK("rax_is_the_ring", distinct == RING && spaced && sampled > 0 && rax[0] == (uintptr_t)first,
	      "%d distinct RAX values (expected the ring's %d, 8 KB apart from %p)", distinct, RING, (void *)first);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
}

/* PAPI_profil with PAPI_PROFIL_DATA_EAR: the buckets count the sampled loads' data addresses. One 32-bit bucket per
 * 64-byte line of the ring's array (scale 2048: PAPI's index is (address - offset) x scale / 2^17): every sample
 * lands on one of the ring's eight lines, one per period. A profile with the
 * flag on an event that cannot drive PEBS is refused: it has no data address to give. */
#define LINES ((RING * STRIDE + 4096) / 64)
static unsigned int line_profile[LINES];

static void data_profile(void)
{
	const char *events[] = {EVENT};
	const char *plain_events[] = {"1stL_cache_load_miss_retired"};
	int set = new_set(events, 1), plain = new_set(plain_events, 1), code = 0, plain_code = 0, rc, i, lines_hit = 0;
	int ring_lines_hit = 0, elsewhere = 0;
	unsigned long long total = 0;
	long long count = 0, expected = 0;
	char *first = l1_miss_setup(), *p;
	const int flags = PAPI_PROFIL_DATA_EAR | PAPI_PROFIL_BUCKET_32;

	PAPI_event_name_to_code("1stL_cache_load_miss_retired", &plain_code);
	rc = PAPI_profil(line_profile, sizeof line_profile, (vptr_t)ring, 2048, plain, plain_code, PERIOD, flags);
	CHECK("data_profile_needs_pebs", rc == PAPI_ENOSUPP, "PAPI_profil with DATA_EAR on an IEBS event returned %d (%s)",
	      rc, PAPI_strerror(rc));
	PAPI_event_name_to_code(EVENT, &code);
	rc = PAPI_profil(line_profile, sizeof line_profile, (vptr_t)ring, 2048, set, code, PERIOD, flags);
	CHECK("data_profile_set", rc == PAPI_OK, "PAPI_profil returned %d (%s)", rc, PAPI_strerror(rc));
	/* In chunks counted from zero, as precise_samples does, so that every ring address is sampled. */
	PAPI_start(set);
	p = first;
	for (i = 0; i < CHUNKS; i++) {
		long long chunk_count = 0;
		p = walk(p, CHUNK, i);
		usleep(1000); /* the last interrupt's signal, as above */
		if (i + 1 < CHUNKS)
			PAPI_accum(set, &chunk_count);
		else
			PAPI_stop(set, &chunk_count);
		count += chunk_count;
		expected += chunk_count / PERIOD;
	}
	if (p != first)
		abort();
	for (i = 0; i < LINES; i++) {
		const int ring_line = (i * 64) % STRIDE == (RING_OFFSET & ~63);
		total += line_profile[i];
		lines_hit += line_profile[i] != 0;
		ring_lines_hit += ring_line && line_profile[i] != 0;
		elsewhere += !ring_line && line_profile[i] != 0;
	}
	printf("data profile: %llu samples for %lld events, on %d lines (%d of the ring's)\n", total, count, lines_hit,
	       ring_lines_hit);
	CHECK("data_profile_one_per_period", (long long)total == expected,
	      "%llu samples for %lld events in %d chunks (expected %lld)", total, count, CHUNKS, expected);
	/* Which of the eight lines each chunk's samples fall on depends on the few misses PAPI's dispatch adds to the
	 * count; over eight chunks most lines are sampled (precise_samples checks all eight through the records). */
	CHECK("data_profile_is_the_ring", ring_lines_hit >= RING / 2 && elsewhere == 0,
	      "%d of the ring's %d lines sampled, %d other lines", ring_lines_hit, RING, elsewhere);
	PAPI_profil(line_profile, sizeof line_profile, (vptr_t)ring, 2048, set, code, 0, flags);
	PAPI_cleanup_eventset(set);
	PAPI_destroy_eventset(&set);
	PAPI_cleanup_eventset(plain);
	PAPI_destroy_eventset(&plain);
}

/* arg: NULL on the main thread, else a second thread's. */
static void *checks(void *arg)
{
	if (arg != NULL)
		PAPI_register_thread();
	refusals();
	precise_samples();
	data_profile();
	return NULL;
}

int main(int argc, char **argv)
{
	int rc = PAPI_library_init(PAPI_VER_CURRENT);
	pthread_t thread;

	if (rc != PAPI_VER_CURRENT) {
		printf("FAIL library_init: %d\n", rc);
		return 1;
	}
	if (argc > 1 && strcmp(argv[1], "--thread") == 0) {
		PAPI_thread_init(pthread_self);
		pthread_create(&thread, NULL, checks, argv[1]);
		pthread_join(thread, NULL);
	} else {
		checks(NULL);
	}
	printf("%d failures\n", failures);
	return failures ? 1 : 0;
}
