/* The whole-loop suite's driver (doc/fidelity.md, "Library loops"): times GMP's mpn kernels, as found in one
 * libgmp, with PAPI_TOT_CYC read from inside the program, so that under netburst-run it counts on the emulated
 * Pentium 4. It builds as x86-64 code (64-bit limbs) and as i386 code (gcc -m32, 32-bit limbs: GMP's ABI=32
 * kernels, the ones with Northwood figures); a limb is GMP's mp_limb_t, an unsigned long in both.
 *
 *   gmp-loops LIBGMP [-n N1 N2 N3] [KERNEL...]
 *
 * LIBGMP is the shared library to time (Debian's, or one built for a Pentium 4); the kernels are looked up in it
 * by name, so the same driver times the generic and the P4-tuned code of one function. For each kernel: one
 * warm-up call at the largest size, then the fewest cycles of ten calls at each size N (limbs; calls for the
 * per-call kernels). The call and the reads cost the same at every size, so (cycles(N3) - cycles(N1)) / (N3 - N1)
 * is the loop's cost per limb, which is what GMP's "cycles/limb" rows state (for sqr_diag_addlsh1, half of it:
 * GMP's tune/speed.h halves that routine's time, so its row is per limb of the 2n-limb result). Prints
 * "kernel<TAB>figure<TAB>figure N1..N2,figure N2..N3" per kernel (the last column shows whether the figure moves
 * with the size), or "kernel<TAB>absent" when LIBGMP has no such function.
 *
 * Operands: random limbs from a fixed seed (GMP's tune/speed times random operands too, and pentium4/aors_n.asm
 * branches on carries, so its time depends on them). Each operand starts at a different offset within a 4 KiB
 * page, so no two of them alias in the L1 (doc/emulator-model.md, 4K aliasing): GMP's figures are its authors'
 * best, not an aliasing case. All operands together stay under 12 KiB, inside a Prescott's 16 KiB L1; with 32-bit
 * limbs under 6 KiB, inside a Northwood's 8 KiB.
 *
 * How it reads the cycles. Built with -DGMP_LOOPS_PAPI (the x86-64 driver), through PAPI, as a user would: an
 * event set of PAPI_TOT_CYC, PAPI_read around each call, as the per-form driver (tests/fidelity/driver.c) does.
 * Built without it (the i386 driver), through the emulator's client requests (emulator/protocol/netburst_client.h),
 * not the 32-bit libpapi: PAPI_read's own code and data between the calls evict some of the operands' lines from
 * a Northwood's 8 KiB L1, at places that move with the stack, and through PAPI the model-2 figures of debian32
 * add_n, sub_n, submul_1 and cnd_add_n moved by 0.05 to 0.08 cycles a limb with the environment (the suite's limit
 * is 0.05; GMP's own speed program reads the TSC, whose footprint is nil). It writes the MSRs that PAPI_TOT_CYC's
 * recipe programs, which
 * the script takes from `netburst-events --encode` and passes as -DGMP_LOOPS_WRITES (msr=value pairs) and
 * -DGMP_LOOPS_COUNTER, and reads the counter with the emulated RDPMC. Both count the same event in the same
 * domain (user), and both reads cost the same at every size, so the per-limb figures do not depend on the path.
 * One source with two small timer back ends rather than a second driver: the kernels, operands and arithmetic,
 * which the figures do depend on, stay one copy. */
#include <dlfcn.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef GMP_LOOPS_PAPI
#include <papi.h>
#else
#include "emulator/protocol/netburst_client.h"
#endif

typedef unsigned long limb;
typedef long size;
enum { kLimbBits = (int)(sizeof(limb) * CHAR_BIT) };
#define HIGH_BIT ((limb)1 << (kLimbBits - 1))
#if ULONG_MAX > 0xffffffffUL
typedef unsigned __int128 dlimb; /* two limbs, for the 2-by-1 inverse */
#else
typedef uint64_t dlimb;
#endif

/* Ten calls a size: the loops that branch on their data (pentium4/aors_n.asm, rsh1aors_n.asm) start each call with
 * the branch predictor as the calls before left it, and with three the fewest still moved by up to 0.06 cycles a
 * limb with what ran before the region (the environment's size). With six, 28 environment sizes (0 to 1,000 bytes,
 * every 37) moved pentium4 rsh1add_n by 0.078 and rsh1sub_n by 0.073 cycles; with ten every loop stays within the
 * suite's 0.05. */
enum { kMaxLimbs = 256, kRepeats = 10 };

/* One operand area per role, each 4 KiB plus room for its offset (8 KiB: an offset under 4 KiB and 2 * 256 + 2
 * limbs of 8 bytes). */
enum { kAreaBytes = 8192 };
static _Alignas(4096) limb area_r[kAreaBytes / sizeof(limb)], area_u[kAreaBytes / sizeof(limb)],
    area_v[kAreaBytes / sizeof(limb)], area_t[kAreaBytes / sizeof(limb)];
static limb *rp, *up, *vp, *tp;

static limb random_limb(void) {
  static uint64_t state = 0x9e3779b97f4a7c15u;
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return (limb)state;
}

static void set_up(void) {
  /* Offsets of 0, 1/4, 1/2 and 3/4 page plus a line each (0, 1088, 2112 and 3136 bytes): the four roles never
   * share a 4 KiB offset. */
  rp = area_r + 0;
  up = area_u + 1088 / sizeof(limb);
  vp = area_v + 2112 / sizeof(limb);
  tp = area_t + 3136 / sizeof(limb);
  for (int i = 0; i < 2 * kMaxLimbs + 2; ++i) {
    rp[i] = random_limb();
    up[i] = random_limb();
    vp[i] = random_limb();
    tp[i] = random_limb();
  }
}

/* The divisors: normalised (top bit set) and not, and an odd one for the exact/Hensel divisions. */
static limb d_norm, d_unnorm, d_odd;
static limb inverse_2by1(limb d) { /* floor((B^2 - 1) / d) - B, as GMP's invert_limb defines it */
  dlimb num = ~(dlimb)0;
  return (limb)(num / d);
}
static limb binvert(limb d) { /* d^-1 mod B for odd d: Newton's iteration doubles the good bits each step */
  limb inv = d;
  for (int i = 0; i < 6; ++i) inv *= 2 - d * inv; /* 3, 6, 12, ... 192 bits: enough for 32 and 64 */
  return inv;
}

static void* lib;
static void* fn(const char* name) {
  char symbol[64];
  snprintf(symbol, sizeof symbol, "__gmpn_%s", name);
  return dlsym(lib, symbol);
}

/* The shapes of the mpn calls, one runner each. `f` is the function, `n` the size. */
typedef limb (*rrun_t)(limb*, const limb*, const limb*, size);
typedef limb (*shift_t)(limb*, const limb*, size, unsigned);
typedef limb (*mul1_t)(limb*, const limb*, size, limb);
typedef limb (*mul2_t)(limb*, const limb*, size, const limb*);
typedef limb (*un_t)(const limb*, size);
typedef limb (*uvn_t)(const limb*, const limb*, size);
typedef void (*copy_t)(limb*, const limb*, size);
typedef limb (*divrem1_t)(limb*, size, const limb*, size, limb);
typedef void (*cps_t)(limb*, limb);
typedef limb (*modp_t)(const limb*, size, limb, const limb*);
typedef limb (*divexact_t)(limb*, const limb*, size, limb);
typedef limb (*modexact_t)(const limb*, size, limb);
typedef limb (*bdivq1_t)(limb*, const limb*, size, limb, limb, int);
typedef limb (*dbm1c_t)(limb*, const limb*, size, limb, limb);
typedef limb (*divrem2_t)(limb*, size, limb*, size, const limb*);
typedef limb (*qr1n_t)(limb*, const limb*, size, limb, limb, limb);
typedef limb (*inv_t)(limb);
typedef limb (*cnd_t)(limb, limb*, const limb*, const limb*, size);
typedef void (*diag_t)(limb*, const limb*, const limb*, size);
typedef void (*basecase_t)(limb*, const limb*, size, const limb*, size);

static volatile limb sink;
static limb cps[8];

struct kernel {
  const char* name;  /* what the suite calls it (the GMP name, with a variant suffix where it needs one) */
  const char* function;  /* GMP's mpn name */
  void (*run)(void* f, size n);
  void (*prepare)(void* f);  /* precomputation outside the timed call, or NULL */
  int halve;  /* GMP's tune/speed halves the time (sqr_diag_addlsh1: speed.h divides by 2, the 2n-limb result) */
  int square; /* n-by-n: sizes are squared, the figure is per cross-product (GMP's speed -CDE; tune/README) */
};

static void run_rrun(void* f, size n) { sink = ((rrun_t)f)(rp, up, vp, n); }
/* in place, the destination the first source (GMP's speed suffix .1; the 32-bit files' second column) */
static void run_rrun_1(void* f, size n) { sink = ((rrun_t)f)(rp, rp, vp, n); }
static void run_shift(void* f, size n) { sink = ((shift_t)f)(rp, up, n, 5); }
static void run_mul1(void* f, size n) { sink = ((mul1_t)f)(rp, up, n, vp[0]); }
static void run_mul2(void* f, size n) { sink = ((mul2_t)f)(rp, up, n, vp); }
static void run_un(void* f, size n) { sink = ((un_t)f)(up, n); }
static void run_uvn(void* f, size n) { sink = ((uvn_t)f)(up, vp, n); }
static void run_copy(void* f, size n) { ((copy_t)f)(rp, up, n); }
static void run_divrem1_norm(void* f, size n) { sink = ((divrem1_t)f)(rp, 0, up, n, d_norm); }
static void run_divrem1_unnorm(void* f, size n) { sink = ((divrem1_t)f)(rp, 0, up, n, d_unnorm); }
static void run_divrem1_frac(void* f, size n) { sink = ((divrem1_t)f)(rp, n, up, 1, d_norm); }
static void run_modp(void* f, size n) { sink = ((modp_t)f)(up, n, d_unnorm << cps[1], cps); }
static void run_divexact(void* f, size n) { sink = ((divexact_t)f)(rp, up, n, d_odd); }
static void run_modexact(void* f, size n) { sink = ((modexact_t)f)(up, n, d_odd); }
static void run_bdivq1(void* f, size n) { sink = ((bdivq1_t)f)(rp, up, n, d_odd, binvert(d_odd), 0); }
static void run_dbm1c(void* f, size n) { sink = ((dbm1c_t)f)(rp, up, n, ~(limb)0 / 3, 0); }
static void run_divrem2(void* f, size n) {
  /* divrem_2 writes only the 2-limb remainder into its dividend (tp), so repeated calls see the same numbers */
  limb d[2] = {vp[0], vp[1] | HIGH_BIT};
  sink = ((divrem2_t)f)(rp, 0, tp, n, d);
}
static void run_qr1n(void* f, size n) { sink = ((qr1n_t)f)(rp, up, n, 0, d_norm, inverse_2by1(d_norm)); }
/* GMP's tune/speed.h (SPEED_ROUTINE_INVERT_LIMB_CALL) feeds each inverse into the next divisor, d = dinv ^ x[j]
 * with the high bit set: its figure is the latency of a call, and so is this one. */
static void run_invert(void* f, size n) {
  limb dinv = 0;
  for (size i = 0; i < n; ++i) dinv = ((inv_t)f)((dinv ^ up[i]) | HIGH_BIT);
  sink = dinv;
}
static void run_cnd(void* f, size n) { sink = ((cnd_t)f)(1, rp, up, vp, n); }
static void run_diag(void* f, size n) { ((diag_t)f)(rp, tp, up, n); }
static void run_basecase(void* f, size n) { ((basecase_t)f)(rp, up, n, vp, n); }

/* mod_1_1p, mod_1s_2p and mod_1s_4p take a table made by their _cps function for the divisor (GMP's mod_1.c);
 * mod_1s_4p needs the divisor below B/4, which d_unnorm is. */
static void prepare_mod(void* f, const char* cps_name) {
  (void)f;
  cps_t make = (cps_t)fn(cps_name);
  if (make) make(cps, d_unnorm);
}
static void prep_mod_1_1p(void* f) { prepare_mod(f, "mod_1_1p_cps"); }
static void prep_mod_1s_2p(void* f) { prepare_mod(f, "mod_1s_2p_cps"); }
static void prep_mod_1s_4p(void* f) { prepare_mod(f, "mod_1s_4p_cps"); }

static const struct kernel kernels[] = {
    {"add_n", "add_n", run_rrun, NULL, 0, 0},
    {"sub_n", "sub_n", run_rrun, NULL, 0, 0},
    {"addlsh1_n", "addlsh1_n", run_rrun, NULL, 0, 0},
    {"add_n.1", "add_n", run_rrun_1, NULL, 0, 0},
    {"sub_n.1", "sub_n", run_rrun_1, NULL, 0, 0},
    {"addlsh1_n.1", "addlsh1_n", run_rrun_1, NULL, 0, 0},
    {"sublsh1_n", "sublsh1_n", run_rrun, NULL, 0, 0},
    {"addlsh2_n", "addlsh2_n", run_rrun, NULL, 0, 0},
    {"sublsh2_n", "sublsh2_n", run_rrun, NULL, 0, 0},
    {"rsh1add_n", "rsh1add_n", run_rrun, NULL, 0, 0},
    {"rsh1sub_n", "rsh1sub_n", run_rrun, NULL, 0, 0},
    {"and_n", "and_n", run_rrun, NULL, 0, 0},
    {"ior_n", "ior_n", run_rrun, NULL, 0, 0},
    {"xor_n", "xor_n", run_rrun, NULL, 0, 0},
    {"andn_n", "andn_n", run_rrun, NULL, 0, 0},
    {"iorn_n", "iorn_n", run_rrun, NULL, 0, 0},
    {"xnor_n", "xnor_n", run_rrun, NULL, 0, 0},
    {"nand_n", "nand_n", run_rrun, NULL, 0, 0},
    {"nior_n", "nior_n", run_rrun, NULL, 0, 0},
    {"lshift", "lshift", run_shift, NULL, 0, 0},
    {"rshift", "rshift", run_shift, NULL, 0, 0},
    {"lshiftc", "lshiftc", run_shift, NULL, 0, 0},
    {"mul_1", "mul_1", run_mul1, NULL, 0, 0},
    {"addmul_1", "addmul_1", run_mul1, NULL, 0, 0},
    {"submul_1", "submul_1", run_mul1, NULL, 0, 0},
    {"mul_2", "mul_2", run_mul2, NULL, 0, 0},
    {"addmul_2", "addmul_2", run_mul2, NULL, 0, 0},
    {"popcount", "popcount", run_un, NULL, 0, 0},
    {"hamdist", "hamdist", run_uvn, NULL, 0, 0},
    {"mod_34lsub1", "mod_34lsub1", run_un, NULL, 0, 0},
    {"com", "com", run_copy, NULL, 0, 0},
    {"copyi", "copyi", run_copy, NULL, 0, 0},
    {"copyd", "copyd", run_copy, NULL, 0, 0},
    {"divrem_1.norm", "divrem_1", run_divrem1_norm, NULL, 0, 0},
    {"divrem_1.unnorm", "divrem_1", run_divrem1_unnorm, NULL, 0, 0},
    {"divrem_1.frac", "divrem_1", run_divrem1_frac, NULL, 0, 0},
    {"mod_1_1p", "mod_1_1p", run_modp, prep_mod_1_1p, 0, 0},
    {"mod_1s_2p", "mod_1s_2p", run_modp, prep_mod_1s_2p, 0, 0},
    {"mod_1s_4p", "mod_1s_4p", run_modp, prep_mod_1s_4p, 0, 0},
    {"divexact_1", "divexact_1", run_divexact, NULL, 0, 0},
    {"modexact_1_odd", "modexact_1_odd", run_modexact, NULL, 0, 0},
    {"pi1_bdiv_q_1", "pi1_bdiv_q_1", run_bdivq1, NULL, 0, 0},
    {"bdiv_dbm1c", "bdiv_dbm1c", run_dbm1c, NULL, 0, 0},
    {"divrem_2", "divrem_2", run_divrem2, NULL, 0, 0},
    {"div_qr_1n_pi1", "div_qr_1n_pi1", run_qr1n, NULL, 0, 0},
    {"invert_limb", "invert_limb", run_invert, NULL, 0, 0},
    {"cnd_add_n", "cnd_add_n", run_cnd, NULL, 0, 0},
    {"cnd_sub_n", "cnd_sub_n", run_cnd, NULL, 0, 0},
    {"sqr_diag_addlsh1", "sqr_diag_addlsh1", run_diag, NULL, 1, 0},
    {"mul_basecase", "mul_basecase", run_basecase, NULL, 0, 1},
};

/* The cycle counter: PAPI's, or the emulated PMU's own (see the head of the file). */
#ifdef GMP_LOOPS_PAPI
static int set = PAPI_NULL;
static void check(int code, const char* what) {
  if (code != PAPI_OK) {
    fprintf(stderr, "gmp-loops: %s: %s\n", what, PAPI_strerror(code));
    exit(1);
  }
}
static int timer_start(void) {
  if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
    fprintf(stderr, "gmp-loops: PAPI_library_init failed\n");
    return 1;
  }
  check(PAPI_create_eventset(&set), "PAPI_create_eventset");
  check(PAPI_add_event(set, PAPI_TOT_CYC), "PAPI_add_event(PAPI_TOT_CYC)");
  check(PAPI_start(set), "PAPI_start");
  return 0;
}
static long long timer_read(void) {
  long long value;
  check(PAPI_read(set, &value), "PAPI_read");
  return value;
}
static void timer_stop(void) {
  long long last;
  check(PAPI_stop(set, &last), "PAPI_stop");
}
#else
#if !defined(GMP_LOOPS_WRITES) || !defined(GMP_LOOPS_COUNTER)
#error "without PAPI, define GMP_LOOPS_WRITES (\"msr=value,...\") and GMP_LOOPS_COUNTER (scripts/gmp-loops.sh does)"
#endif
static int timer_start(void) {
  /* the writes in order, as the component makes them for the event set's start */
  const char* at = GMP_LOOPS_WRITES;
  while (*at) {
    char* end;
    const unsigned long msr = strtoul(at, &end, 0);
    if (*end != '=') break;
    const unsigned long long value = strtoull(end + 1, &end, 0);
    if (nb_wrmsr((uint32_t)msr, value) != NB_OK) {
      fprintf(stderr, "gmp-loops: wrmsr 0x%lx failed (not under netburst-run?)\n", msr);
      return 1;
    }
    at = *end == ',' ? end + 1 : end;
  }
  if (*at) {
    fprintf(stderr, "gmp-loops: bad GMP_LOOPS_WRITES at \"%s\"\n", at);
    return 1;
  }
  return 0;
}
static long long timer_read(void) {
  uint64_t value = 0;
  if (nb_rdpmc(GMP_LOOPS_COUNTER, &value) != NB_OK) {
    fprintf(stderr, "gmp-loops: rdpmc %d failed\n", GMP_LOOPS_COUNTER);
    exit(1);
  }
  return (long long)(value & ((1ull << 40) - 1)); /* a 40-bit counter: the calls are far shorter than its wrap */
}
static void timer_stop(void) {}
#endif

static long long cycles_of(const struct kernel* k, void* f, size n) {
  const long long before = timer_read();
  k->run(f, n);
  const long long after = timer_read();
  return (after - before) & ((1ll << 40) - 1);
}

static int selected(const char* name, int argc, char** argv, int first) {
  if (first >= argc) return 1;
  for (int i = first; i < argc; ++i)
    if (strcmp(argv[i], name) == 0) return 1;
  return 0;
}

int main(int argc, char** argv) {
  size sizes[3] = {64, 160, 256};
  int first = 2;
  if (argc > 5 && strcmp(argv[2], "-n") == 0) {
    for (int i = 0; i < 3; ++i) sizes[i] = atol(argv[3 + i]);
    first = 6;
  }
  if (argc < 2 || sizes[0] < 1 || sizes[1] <= sizes[0] || sizes[2] <= sizes[1] || sizes[2] > kMaxLimbs) {
    fprintf(stderr, "usage: gmp-loops LIBGMP [-n N1 N2 N3] [KERNEL...]  (0 < N1 < N2 < N3 <= %d)\n", kMaxLimbs);
    return 2;
  }
  lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "gmp-loops: %s\n", dlerror());
    return 2;
  }
  set_up();
  d_norm = random_limb() | HIGH_BIT;
  d_unnorm = (random_limb() >> 3) | 1;
  d_odd = random_limb() | 1;
  if (timer_start() != 0) return 1;
  for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; ++i) {
    const struct kernel* k = &kernels[i];
    if (!selected(k->name, argc, argv, first)) continue;
    void* f = fn(k->function);
    if (!f) {
      printf("%s\tabsent\n", k->name);
      continue;
    }
    if (k->prepare) k->prepare(f);
    /* n-by-n kernels: 24, 32 and 40 limbs, per cross-product between 24x24 and 40x40, which centres on GMP's
     * "at 32 limbs" (its speed -CDE takes the difference over N*N too) */
    const size own[3] = {24, 32, 40};
    const size* n = k->square ? own : sizes;
    double basis[3];
    for (int s = 0; s < 3; ++s) basis[s] = k->square ? (double)n[s] * (double)n[s] : (double)n[s];
    k->run(f, n[2]);
    long long best[3];
    for (int repeat = 0; repeat < kRepeats; ++repeat)
      for (int s = 0; s < 3; ++s) {
        const long long c = cycles_of(k, f, n[s]);
        if (repeat == 0 || c < best[s]) best[s] = c;
      }
    const double per = k->halve ? 2.0 : 1.0;
    printf("%s\t%.3f\t%.3f,%.3f\n", k->name, (double)(best[2] - best[0]) / (basis[2] - basis[0]) / per,
           (double)(best[1] - best[0]) / (basis[1] - basis[0]) / per,
           (double)(best[2] - best[1]) / (basis[2] - basis[1]) / per);
    fflush(stdout);
  }
  timer_stop();
  return 0;
}
