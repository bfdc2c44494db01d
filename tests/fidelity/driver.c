/* The fidelity suite's driver (doc/fidelity.md): measures every kernel of tests/fidelity with PAPI_TOT_CYC from
 * inside the program, so that under netburst-run it counts on the emulated Pentium 4.
 *
 *   fidelity-driver [-n N1 N2 [N3...]] [ID...]
 *
 * For each kernel (or each one whose id is named): one warm-up call of N1 loop iterations, then cycles of each
 * length (the fewest of three calls each), read with PAPI_read around each call. Start-up, the calls and the
 * reads cost the same at every length, so (cycles(Nk) - cycles(N1)) / ((Nk - N1) * copies) is the cost of one
 * copy. Prints "id<TAB>kind<TAB>cycles per copy<TAB>text" per kernel; with three lengths or more, then a tab and
 * the same figure between each length and the next, separated by commas (how much it moves with the length).
 *
 * Built as an i386 program (gcc -m32 against the 32-bit libpapi, scripts/fidelity.sh) it runs the forms in 32-bit
 * mode, as InstLatX86 measured them, and leaves out the forms that need 64-bit mode (needs_64bit_mode). */
#include <papi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct kernel {
  const char* id;
  const char* kind;
  const char* text;
  long copies;
  void (*run)(long n);
};
extern const struct kernel __start_fidelity_kernels[];
extern const struct kernel __stop_fidelity_kernels[];

/* Data the kernels read (kernel.inc, mem.S). The program is linked without PIE: every address fits in 32 bits. */
_Alignas(16) const double fid_ones_pd[2] = {1.0, 1.0};
_Alignas(16) const float fid_ones_ps[4] = {1.0f, 1.0f, 1.0f, 1.0f};
static _Alignas(4096) unsigned char self_area[4096];
static _Alignas(4096) unsigned char l2_ring[128 * 1024];
static _Alignas(4096) unsigned char mem_ring[16 * 1024 * 1024];
static _Alignas(4096) unsigned char bw_buffer[64 * 1024];
static _Alignas(4096) unsigned char cold_area[256 * 1024];
uint64_t fid_p_self, fid_p_byte, fid_p_zero, fid_p_split, fid_p_l2, fid_p_mem, fid_p_bw, fid_bw_offset;
uint64_t fid_p_cold, fid_p_cold_end;

static void store64(unsigned char* at, uint64_t value) { memcpy(at, &value, sizeof value); }

/* A random cyclic order of `count` slots of `stride` bytes, each slot's first 8 bytes pointing at the next. */
static void ring(unsigned char* base, size_t count, size_t stride, int random) {
  size_t* order = malloc(count * sizeof *order);
  for (size_t i = 0; i < count; ++i) order[i] = i;
  uint64_t state = 0x9e3779b97f4a7c15u;
  for (size_t i = count - 1; random && i > 0; --i) {
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    size_t j = state % (i + 1), t = order[i];
    order[i] = order[j]; order[j] = t;
  }
  for (size_t i = 0; i < count; ++i)
    store64(base + order[i] * stride, (uint64_t)(uintptr_t)(base + order[(i + 1) % count] * stride));
  free(order);
}

static void set_up(void) {
  fid_p_self = (uintptr_t)self_area;
  store64(self_area, fid_p_self);
  fid_p_byte = (uintptr_t)self_area + 0x240;         /* 0x240: low byte 0x40, which is what it holds */
  self_area[0x240] = 0x40;
  fid_p_zero = (uintptr_t)self_area + 0x280;         /* holds 0 */
  fid_p_split = (uintptr_t)self_area + 0x300 + 62;   /* bytes 62..65 of the lines at 0x300 and 0x340 */
  uint32_t split = (uint32_t)fid_p_split;
  memcpy(self_area + 0x300 + 62, &split, sizeof split);
  /* self_area's address at 0x200 in each 4 KB page (never 64 KB from self_area's line), written before the 16 MB
   * ring below pushes it out of the L2: each call of load_r32_after_miss starts with a load that misses the
   * DTLB, the L1 and the L2. */
  for (size_t page = 0; page < sizeof cold_area; page += 4096) store64(cold_area + page + 0x200, fid_p_self);
  fid_p_cold = (uintptr_t)cold_area + 0x200;
  fid_p_cold_end = (uintptr_t)cold_area + sizeof cold_area;
  ring(l2_ring, sizeof l2_ring / 128, 128, 1);
  fid_p_l2 = (uintptr_t)l2_ring;
  ring(mem_ring, sizeof mem_ring / 1024, 1024, 0);
  fid_p_mem = (uintptr_t)mem_ring;
  memset(bw_buffer, 1, sizeof bw_buffer);
  fid_p_bw = (uintptr_t)bw_buffer;
}

static void check(int status, const char* what) {
  if (status != PAPI_OK) {
    fprintf(stderr, "fidelity-driver: %s: %s\n", what, PAPI_strerror(status));
    exit(1);
  }
}

/* The forms the i386 build leaves out: those with a 64-bit general-register operand (their text names r64), which
 * exist only in 64-bit mode. kernel.inc assembles them with the registers' low halves, so they must not run. */
static int needs_64bit_mode(const struct kernel* k) {
#ifdef __i386__
  return strstr(k->text, "r64") != NULL;
#else
  (void)k;
  return 0;
#endif
}

static int selected(const struct kernel* k, int argc, char** argv, int first) {
  if (first >= argc) return 1;
  for (int i = first; i < argc; ++i)
    if (strcmp(argv[i], k->id) == 0) return 1;
  return 0;
}

/* Each length is measured this many times and the fewest cycles kept, as InstLatX86 keeps its best run: the
 * emulated timer interrupt (every 8 million instructions) lands inside one of the short runs now and then, and the
 * cache lines and TLB entries its kernel path takes make the run it lands in slower. */
enum { kRepeats = 3 };

/* The cycles of one call of k with n loop iterations. */
static long long cycles_of(const struct kernel* k, long n, int set) {
  long long before, after;
  check(PAPI_read(set, &before), "PAPI_read");
  k->run(n);
  check(PAPI_read(set, &after), "PAPI_read");
  return after - before;
}

enum { kMaxLengths = 8 };

/* Cycles per copy between lengths[i] and lengths[j], from the best cycles of each. */
static double per_copy(const struct kernel* k, const long* lengths, const long long* best, int i, int j) {
  return (double)(best[j] - best[i]) / (double)((lengths[j] - lengths[i]) * k->copies);
}

int main(int argc, char** argv) {
  long lengths[kMaxLengths] = {40, 200};
  int num_lengths = 2, first = 1;
  if (argc > 1 && strcmp(argv[1], "-n") == 0) {
    num_lengths = 0;
    for (first = 2; first < argc && argv[first][0] >= '0' && argv[first][0] <= '9'; ++first)
      if (++num_lengths <= kMaxLengths) lengths[num_lengths - 1] = atol(argv[first]);
  }
  int ok = num_lengths >= 2 && num_lengths <= kMaxLengths && lengths[0] >= 1;
  for (int i = 1; ok && i < num_lengths; ++i) ok = lengths[i] > lengths[i - 1];
  if (!ok) {
    fprintf(stderr, "usage: fidelity-driver [-n N1 N2 [N3...]] [ID...]  (0 < N1 < N2 < ..., at most %d)\n",
            kMaxLengths);
    return 2;
  }
  set_up();
  if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
    fprintf(stderr, "fidelity-driver: PAPI_library_init failed\n");
    return 1;
  }
  int set = PAPI_NULL;
  check(PAPI_create_eventset(&set), "PAPI_create_eventset");
  check(PAPI_add_event(set, PAPI_TOT_CYC), "PAPI_add_event(PAPI_TOT_CYC)");
  check(PAPI_start(set), "PAPI_start");
  for (const struct kernel* k = __start_fidelity_kernels; k < __stop_fidelity_kernels; ++k) {
    if (!selected(k, argc, argv, first) || needs_64bit_mode(k)) continue;
    k->run(lengths[0]);
    long long best[kMaxLengths];
    for (int repeat = 0; repeat < kRepeats; ++repeat)
      for (int i = 0; i < num_lengths; ++i) {
        const long long c = cycles_of(k, lengths[i], set);
        if (repeat == 0 || c < best[i]) best[i] = c;
      }
    const int longest = num_lengths - 1;
    printf("%s\t%s\t%.3f\t%s", k->id, k->kind, per_copy(k, lengths, best, 0, longest), k->text);
    for (int i = 0; num_lengths > 2 && i < longest; ++i)
      printf("%c%.3f", i == 0 ? '\t' : ',', per_copy(k, lengths, best, i, i + 1));
    printf("\n");
    fflush(stdout);
  }
  long long last;
  check(PAPI_stop(set, &last), "PAPI_stop");
  return 0;
}
