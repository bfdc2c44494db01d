/* PAPI intervals of many lengths over one program, for scripts/sampled-accuracy.py: how an estimate of
 * --timing=sampled errs against the interval's length (doc/sampled-timing.md).
 *
 *   intervals [ROUNDS]
 *
 * The work is a mix a real code has: a pass of arithmetic over a 256 KiB array (L1 misses, L2 hits), a walk of
 * random steps over 8 MiB (misses to memory), and data-dependent branches. Each round reads PAPI_TOT_CYC (PAPI_read,
 * so that every length is one interval of PAPI's) around pieces of 1, 10, 100 and 1,000 steps of that work (about
 * 300 instructions a step) and prints "steps<TAB>cycles" per piece. The input is fixed, so two runs execute the same
 * instructions and differ only in what the cycles are. */
#include <papi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kArray = 32768, kWalk = 1 << 20 };
static double array[kArray];
static uint64_t walk[kWalk];

static uint64_t state = 88172645463325252u;
static uint64_t next_random(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

/* One step: 32 array elements, 16 steps of the walk, and a branch on the data. */
static double step(uint64_t i, uint64_t* cursor) {
  double sum = 0;
  const uint64_t base = (i * 32) % kArray;
  for (int k = 0; k < 32; ++k) sum += array[base + k] * 1.0001;
  for (int k = 0; k < 16; ++k) *cursor = walk[*cursor];
  if (*cursor & 1) sum += 1;
  else sum -= 1;
  array[base] = sum * 0.5;
  return sum;
}

static void check(int code, const char* what) {
  if (code != PAPI_OK) {
    fprintf(stderr, "intervals: %s: %s\n", what, PAPI_strerror(code));
    exit(1);
  }
}

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 20;
  for (int i = 0; i < kArray; ++i) array[i] = (double)(next_random() % 1000);
  for (int i = 0; i < kWalk; ++i) walk[i] = next_random() % kWalk;
  if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
    fprintf(stderr, "intervals: PAPI_library_init failed\n");
    return 1;
  }
  int set = PAPI_NULL;
  check(PAPI_create_eventset(&set), "PAPI_create_eventset");
  check(PAPI_add_event(set, PAPI_TOT_CYC), "PAPI_add_event(PAPI_TOT_CYC)");
  check(PAPI_start(set), "PAPI_start");
  static const int lengths[] = {1, 10, 100, 1000};
  uint64_t cursor = 0, i = 0;
  double sink = 0;
  for (int r = 0; r < rounds; ++r)
    for (unsigned l = 0; l < sizeof lengths / sizeof lengths[0]; ++l) {
      long long before, after;
      check(PAPI_read(set, &before), "PAPI_read");
      for (int s = 0; s < lengths[l]; ++s) sink += step(i++, &cursor);
      check(PAPI_read(set, &after), "PAPI_read");
      printf("%d\t%lld\n", lengths[l], after - before);
    }
  long long last;
  check(PAPI_stop(set, &last), "PAPI_stop");
  fprintf(stderr, "intervals: %g\n", sink);
  return 0;
}
