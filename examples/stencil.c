/* A 2-D Jacobi solver for Laplace's equation, parallel with MPI, instrumented with PAPI's high-level regions: the
 * shape of the codes people bring to a performance counter. The NX x NY grid of interior points is cut into strips
 * of whole rows, one per rank (the first NY mod P ranks take one row more); each sweep first swaps the edge rows
 * with the neighbouring ranks (the halo), then updates every owned point from its four neighbours.
 *
 *   mpirun -np 4 netburst-run -- ./stencil [NX NY SWEEPS]
 *
 * Regions (PAPI_EVENTS chooses the events; PAPI writes papi_hl_output/rank_NNNNNN.json for each rank):
 *   "solve"  every sweep, halo exchanges included; its counts vary from run to run with how long each rank
 *            waits for its neighbours (MPI polls while it waits)
 *   "sweep"  one sweep's update of the owned points, nothing else. PAPI 7.0.0 keeps the last begin/end pair of a
 *            region, so this is the last sweep; every sweep does the same work, so it stands for each of them
 *   "halo"   one exchange of edge rows (the last)
 *
 * The update has no data-dependent branch, so a sweep's instructions are a fixed cost per owned row (NX points
 * and the row's loop overhead) plus a fixed cost per sweep (the region calls): a rank's "sweep" count differs
 * from another's only by its share of the rows. scripts/mpi-check.sh holds the ranks to that. */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nx = 64, ny = 66, sweeps = 20;

/* Row i, column j of a strip with a halo row above and below and a boundary column on each side. */
#define AT(a, i, j) ((a)[(size_t)(i) * (size_t)(nx + 2) + (size_t)(j)])

static void check(int retval, const char *what)
{
	if (retval != PAPI_OK) {
		fprintf(stderr, "stencil: %s: %s\n", what, PAPI_strerror(retval));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: stencil [NX NY SWEEPS] (each at least 1)\n");
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
	if (argc == 4) {
		nx = parse(argv[1]);
		ny = parse(argv[2]);
		sweeps = parse(argv[3]);
	} else if (argc != 1) {
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

	check(PAPI_hl_region_begin("solve"), "PAPI_hl_region_begin(solve)");
	for (int s = 0; s < sweeps; s++) {
		check(PAPI_hl_region_begin("halo"), "PAPI_hl_region_begin(halo)");
		exchange(cur, rows, up, down);
		check(PAPI_hl_region_end("halo"), "PAPI_hl_region_end(halo)");
		check(PAPI_hl_region_begin("sweep"), "PAPI_hl_region_begin(sweep)");
		sweep(next, cur, rows);
		check(PAPI_hl_region_end("sweep"), "PAPI_hl_region_end(sweep)");
		double *t = cur;
		cur = next;
		next = t;
	}
	check(PAPI_hl_region_end("solve"), "PAPI_hl_region_end(solve)");

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
