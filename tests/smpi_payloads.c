/* tests/smpi_payloads.c - wrappers/smpi/payloads.c under SMPI, two ranks
 * (tests/smpi.sh runs it with smpirun):
 *
 *   smpirun -np 2 ... smpi-payloads left|copied
 *
 * Rank 0 sends rank 1 messages of ones into zeroed buffers: while skipping,
 * a small one (1 KiB, under every threshold) and two large ones (1 MiB,
 * contiguous and as a strided type, as BLACS sends a block of a matrix);
 * then, with every payload copied again, a large one. The large ones while
 * skipping must arrive as the argument says: 'left' (zeros) or 'copied'
 * (ones: HETMAP_SMPI_PAYLOADS=copy); the rest always copied. Exit 0 when
 * all arrived so, 1 otherwise, saying which did not. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wrappers/smpi/payloads.h"

#define SMALL 128                       /* doubles: 1 KiB */
#define LARGE (1 << 17)                 /* doubles: 1 MiB */
#define STRIDE 2                        /* the strided type: every other double */

enum { LEFT, COPIED };

/* What arrived in x[0..n) at the given stride: COPIED (all ones), LEFT
 * (all zeros), or -1 (a mix). */
static int arrived(const double *x, int n, int stride)
{
	int ones = 0;

	for (int i = 0; i < n; i++)
		ones += x[(long)i * stride] == 1.0;
	return ones == n ? COPIED : ones == 0 ? LEFT : -1;
}

static const char *const said[] = { "left", "copied" };

static int expect(const char *what, int got, int want)
{
	if (got == want)
		return 0;
	fprintf(stderr, "smpi-payloads: %s: %s, expected %s\n", what, got < 0 ? "partly copied" : said[got],
		said[want]);
	return 1;
}

int main(int argc, char **argv)
{
	int rank, bad = 0, large_want;
	double *small, *large, *strided;
	MPI_Datatype every_other;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc != 2 || (strcmp(argv[1], "left") && strcmp(argv[1], "copied"))) {
		if (rank == 0)
			fprintf(stderr, "usage: smpi-payloads left|copied\n");
		MPI_Finalize();
		return 2;
	}
	large_want = strcmp(argv[1], "copied") == 0 ? COPIED : LEFT;
	small = calloc(SMALL, sizeof *small);
	large = calloc(LARGE, sizeof *large);
	strided = calloc((size_t)LARGE * STRIDE, sizeof *strided);
	if (!small || !large || !strided)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Type_vector(LARGE, 1, STRIDE, MPI_DOUBLE, &every_other);
	MPI_Type_commit(&every_other);
	if (rank == 0) {
		for (int i = 0; i < SMALL; i++)
			small[i] = 1.0;
		for (int i = 0; i < LARGE; i++)
			large[i] = strided[(long)i * STRIDE] = 1.0;
	}

	MPI_Barrier(MPI_COMM_WORLD);
	hm_payloads_skip();
	if (rank == 0) {
		MPI_Send(small, SMALL, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
		MPI_Send(large, LARGE, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
		MPI_Send(strided, 1, every_other, 1, 2, MPI_COMM_WORLD);
	} else {
		MPI_Recv(small, SMALL, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(large, LARGE, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(strided, 1, every_other, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		bad += expect("1 KiB while skipping", arrived(small, SMALL, 1), COPIED);
		bad += expect("1 MiB while skipping", arrived(large, LARGE, 1), large_want);
		bad += expect("1 MiB strided while skipping", arrived(strided, LARGE, STRIDE), large_want);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	hm_payloads_copy();
	if (rank == 0) {
		MPI_Send(large, LARGE, MPI_DOUBLE, 1, 3, MPI_COMM_WORLD);
	} else {
		memset(large, 0, LARGE * sizeof *large);
		MPI_Recv(large, LARGE, MPI_DOUBLE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		bad += expect("1 MiB once copying again", arrived(large, LARGE, 1), COPIED);
		if (!bad)
			printf("smpi-payloads: every message arrived as expected (large ones %s)\n", said[large_want]);
	}
	MPI_Bcast(&bad, 1, MPI_INT, 1, MPI_COMM_WORLD);
	MPI_Type_free(&every_other);
	free(small), free(large), free(strided);
	MPI_Finalize();
	return bad ? 1 : 0;
}
