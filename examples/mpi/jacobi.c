/* mpi/jacobi.c - hand-written MPI version of ../jacobi.c (same output).
 * Block rows with one halo row above and below; each sweep exchanges the
 * halos with the neighbours (MPI_Sendrecv) and agrees on the largest change
 * (MPI_Allreduce max). Rank 0 gathers the grid at the end for the checksum. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int n = argc > 1 ? atoi(argv[1]) : 2000;
    int max_iters = argc > 2 ? atoi(argv[2]) : 100;
    if (n < 3 || max_iters < 0 || size > n) {
        if (rank == 0)
            fprintf(stderr, "usage: %s [N >= 3, N >= ranks] [max_iters >= 0]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    const double tolerance = 1e-7;

    /* this rank owns global rows [lo, hi); local row 0 and rows+1 are halos */
    int q = n / size, r = n % size;
    int lo = rank * q + (rank < r ? rank : r);
    int rows = q + (rank < r ? 1 : 0);
    int hi = lo + rows;
    size_t stride = (size_t)n;
    double *u = calloc((size_t)(rows + 2) * stride, sizeof *u);
    double *unew = calloc((size_t)(rows + 2) * stride, sizeof *unew);

    for (int g = lo; g < hi; g++) {
        double *a = u + (size_t)(g - lo + 1) * stride, *b = unew + (size_t)(g - lo + 1) * stride;
        if (g == 0) {
            for (int j = 0; j < n; j++)
                a[j] = b[j] = 100.0;
        } else {
            a[0] = b[0] = 50.0;
        }
    }

    int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    int first = lo > 1 ? lo : 1;               /* first updated global row */
    int last = hi < n - 1 ? hi : n - 1;        /* one past the last updated row */

    int iter = 0;
    double diff = 0.0;
    while (iter < max_iters) {
        MPI_Sendrecv(u + stride, n, MPI_DOUBLE, up, 0, u + (size_t)(rows + 1) * stride, n,
                     MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(u + (size_t)rows * stride, n, MPI_DOUBLE, down, 1, u, n, MPI_DOUBLE, up, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double local = 0.0;
        for (int g = first; g < last; g++) {
            size_t row = (size_t)(g - lo + 1) * stride;
            for (int j = 1; j < n - 1; j++) {
                size_t p = row + j;
                double v = 0.25 * (u[p - stride] + u[p + stride] + u[p - 1] + u[p + 1]);
                double d = fabs(v - u[p]);
                if (d > local)
                    local = d;
                unew[p] = v;
            }
        }
        MPI_Allreduce(&local, &diff, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        double *t = u;
        u = unew;
        unew = t;
        iter++;
        if (diff < tolerance)
            break;
    }

    /* rank 0 collects the owned rows in order and sums them like the sequential code */
    double *grid = NULL;
    int *counts = NULL, *displs = NULL;
    if (rank == 0) {
        grid = malloc((size_t)n * stride * sizeof *grid);
        counts = malloc((size_t)size * sizeof *counts);
        displs = malloc((size_t)size * sizeof *displs);
        for (int p = 0; p < size; p++) {
            counts[p] = (q + (p < r ? 1 : 0)) * n;
            displs[p] = (p * q + (p < r ? p : r)) * n;
        }
    }
    MPI_Gatherv(u + stride, rows * n, MPI_DOUBLE, grid, counts, displs, MPI_DOUBLE, 0,
                MPI_COMM_WORLD);
    if (rank == 0) {
        double checksum = 0.0;
        for (size_t p = 0; p < (size_t)n * n; p++)
            checksum += grid[p];
        printf("n = %d\niterations = %d\nlast change = %.6e\nchecksum = %.8e\nu[5][n/2] = %.10f\n",
               n, iter, diff, checksum, grid[(size_t)5 * n + n / 2]);
        free(grid);
        free(counts);
        free(displs);
    }
    free(u);
    free(unew);
    MPI_Finalize();
    return 0;
}
