/* mpi/matmul.c - hand-written MPI version of ../matmul.c (same output).
 * Every rank builds A and B itself (cheaper than sending them), computes one
 * block of rows of C, and MPI_Gatherv collects the blocks on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NMAX 2000

static double A[NMAX][NMAX];
static double B[NMAX][NMAX];
static double C[NMAX][NMAX];

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int n = argc > 1 ? atoi(argv[1]) : 1500;
    if (n < 1 || n > NMAX) {
        if (rank == 0)
            fprintf(stderr, "usage: %s [N in 1..%d]\n", argv[0], NMAX);
        MPI_Finalize();
        return 2;
    }

    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            A[i][j] = (double)((i + 2 * j) % 7 - 3);
            B[i][j] = (double)((3 * i + j) % 5 - 2);
        }

    /* block rows, the same split as OpenMP's static schedule */
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    int q = n / size, r = n % size;
    for (int p = 0, row = 0; p < size; p++) {
        int rows = q + (p < r ? 1 : 0);
        counts[p] = rows * NMAX;
        displs[p] = row * NMAX;
        row += rows;
    }
    int lo = displs[rank] / NMAX, hi = lo + counts[rank] / NMAX;

    for (int i = lo; i < hi; i++) {
        for (int j = 0; j < n; j++)
            C[i][j] = 0.0;
        for (int k = 0; k < n; k++) {
            double a = A[i][k];
            for (int j = 0; j < n; j++)
                C[i][j] += a * B[k][j];
        }
    }

    /* whole NMAX-wide rows travel; only the first n columns matter */
    if (rank == 0)
        MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DOUBLE, C, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    else
        MPI_Gatherv(C[lo], counts[rank], MPI_DOUBLE, NULL, NULL, NULL, MPI_DOUBLE, 0,
                    MPI_COMM_WORLD);

    if (rank == 0) {
        double checksum = 0.0, trace = 0.0;
        for (int i = 0; i < n; i++) {
            trace += C[i][i];
            for (int j = 0; j < n; j++)
                checksum += C[i][j] * (double)((7 * i + 13 * j) % 101 + 1);
        }
        printf("n = %d\nchecksum = %.1f\ntrace = %.1f\nC[%d][%d] = %.1f\n", n, checksum, trace,
               n / 2, n / 3, C[n / 2][n / 3]);
    }
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
