/* A 2-D Jacobi solver for Laplace's equation, parallel with MPI, instrumented with PAPI's high-level regions: the
 * shape of the codes people bring to a performance counter. The NX x NY grid of interior points is cut into strips
 * of whole rows, one per rank (the first NY mod P ranks take one row more); each sweep first swaps the edge rows
 * with the neighbouring ranks (the halo), then updates every owned point from its four neighbours.
 *
 *   PAPI_EVENTS=PAPI_TOT_INS mpirun -np 4 netburst-run -- ./stencil [NX NY SWEEPS]
 *   mpirun -np 4 netburst-run -e PAPI_TOT_INS --json -o counts.%r.json -- ./stencil --no-papi [NX NY SWEEPS]
 *
 * PAPI writes papi_hl_output/rank_NNNNNN.json for each rank, with an entry for every begin/end pair of a region
 * (netburst-run merge adds the entries of a region up):
 *   "solve"  every sweep, halo exchanges included; its counts vary from run to run with how long each rank
 *            waits for its neighbours (MPI polls while it waits)
 *   "halo"   each exchange of edge rows
 *   "sweep"  each sweep's update of the owned points, nothing else
 *   "calls"  an empty region after each sweep: what PAPI's region calls themselves count inside "sweep" (same
 *            length of name, so the same work in PAPI's name lookups)
 * --no-papi leaves PAPI out, for counting the whole program from outside with netburst-run -e (PAPI inside would
 * program the same counters).
 *
 * The update has no data-dependent branch, so "sweep" minus "calls" is a fixed number of instructions per owned
 * row (NX points and the row's loop overhead) and a few for the call: ranks differ only by their share of the rows.
 * scripts/mpi-check.sh holds them to that. */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nx = 64, ny = 66, sweeps = 20;
static int use_papi = 1;

/* Row i, column j of a strip with a halo row above and below and a boundary column on each side. */
#define AT(a, i, j) ((a)[(size_t)(i) * (size_t)(nx + 2) + (size_t)(j)])

static void check(int retval, const char *what)
{
	if (retval != PAPI_OK) {
		fprintf(stderr, "stencil: %s: %s\n", what, PAPI_strerror(retval));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

static void region_begin(const char *name)
{
	if (use_papi)
		check(PAPI_hl_region_begin(name), "PAPI_hl_region_begin");
}

static void region_end(const char *name)
{
	if (use_papi)
		check(PAPI_hl_region_end(name), "PAPI_hl_region_end");
}

static void usage(void)
{
	fprintf(stderr, "usage: stencil [--no-papi] [NX NY SWEEPS] (each at least 1)\n");
	exit(2);
}

static int parse(const char *text)
{
	char *end;
	const long v = strtol(text, &end, 10);
	if (*end || v < 1 || v > 1000000)
		usage();
	return (int)v;
}

/* The owned rows [1, rows] of `next` from `cur`; the halo rows and the boundary columns are only read. */
static void sweep(double *restrict next, const double *restrict cur, int rows)
{
	for (int i = 1; i <= rows; i++)
		for (int j = 1; j <= nx; j++)
			AT(next, i, j) = 0.25 * (AT(cur, i - 1, j) + AT(cur, i + 1, j) + AT(cur, i, j - 1) + AT(cur, i, j + 1));
}

/* Sends the first owned row up and the last down, and receives the neighbours' into the halo rows. The ranks at
 * the top and bottom talk to MPI_PROC_NULL, whose transfers do nothing: the fixed boundary stays. */
static void exchange(double *a, int rows, int up, int down)
{
	const int n = nx + 2;
	MPI_Sendrecv(&AT(a, 1, 0), n, MPI_DOUBLE, up, 0, &AT(a, rows + 1, 0), n, MPI_DOUBLE, down, 0, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	MPI_Sendrecv(&AT(a, rows, 0), n, MPI_DOUBLE, down, 1, &AT(a, 0, 0), n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int arg = 1;
	if (arg < argc && !strcmp(argv[arg], "--no-papi")) {
		use_papi = 0;
		arg++;
	}
	if (argc - arg == 3) {
		nx = parse(argv[arg]);
		ny = parse(argv[arg + 1]);
		sweeps = parse(argv[arg + 2]);
	} else if (argc != arg) {
		usage();
	}
	if (ny < size) {
		if (rank == 0)
			fprintf(stderr, "stencil: %d rows cannot be shared by %d ranks\n", ny, size);
		MPI_Finalize();
		return 2;
	}

	const int rows = ny / size + (rank < ny % size);
	const int up = rank == 0 ? MPI_PROC_NULL : rank - 1;
	const int down = rank == size - 1 ? MPI_PROC_NULL : rank + 1;
	const size_t points = (size_t)(rows + 2) * (size_t)(nx + 2);
	double *cur = calloc(points, sizeof *cur), *next = calloc(points, sizeof *next);
	if (!cur || !next) {
		fprintf(stderr, "stencil: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	/* The global top edge is held at 1, the other edges at 0: heat flows down the strips. */
	if (rank == 0)
		for (int j = 0; j < nx + 2; j++)
			AT(cur, 0, j) = AT(next, 0, j) = 1.0;

	region_begin("solve");
	for (int s = 0; s < sweeps; s++) {
		region_begin("halo");
		exchange(cur, rows, up, down);
		region_end("halo");
		region_begin("sweep");
		sweep(next, cur, rows);
		region_end("sweep");
		region_begin("calls");
		region_end("calls");
		double *t = cur;
		cur = next;
		next = t;
	}
	region_end("solve");

	/* The heat that has entered the grid: the same for any number of ranks, a check on the halo exchange. */
	double local = 0.0, total = 0.0;
	for (int i = 1; i <= rows; i++)
		for (int j = 1; j <= nx; j++)
			local += AT(cur, i, j);
	MPI_Reduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	printf("rank %d of %d: rows %d, owned points %d\n", rank, size, rows, rows * nx);
	if (rank == 0)
		printf("stencil %dx%d, %d sweeps on %d ranks: heat %.12f\n", nx, ny, sweeps, size, total);
	free(cur);
	free(next);
	MPI_Finalize();
	return 0;
}
