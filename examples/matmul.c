/* A 400x400 double-precision matrix multiply, written the plain way (i, j, k): the compute kernel that
 * `make demo` counts on the emulator and scripts/bench-vs-cachegrind.sh times against cachegrind.
 *
 *   netburst-run -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM ./matmul [N]
 *
 * The inner loop walks b down a column, 3200 bytes per step, so nearly every load of b misses an 8 KB L1. */
#include <stdio.h>
#include <stdlib.h>

#define MAX_N 400

static double a[MAX_N][MAX_N], b[MAX_N][MAX_N], c[MAX_N][MAX_N];

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : MAX_N;
    if (n < 1 || n > MAX_N) {
        fprintf(stderr, "usage: %s [N], 1 <= N <= %d\n", argv[0], MAX_N);
        return 2;
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            a[i][j] = (double)(i + j) / n;
            b[i][j] = (double)(2 * i - j) / n;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double sum = 0.0;
            for (int k = 0; k < n; k++) sum += a[i][k] * b[k][j];
            c[i][j] = sum;
        }
    double trace = 0.0;
    for (int i = 0; i < n; i++) trace += c[i][i];
    printf("%dx%d matrix product, trace %.6f\n", n, n, trace);
    return 0;
}
