/* mpi/pi.c - hand-written MPI version of ../pi.c (same output).
 * Each rank sums one contiguous block of the steps (the same split as
 * OpenMP's static schedule); MPI_Reduce adds the partial sums on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    long long steps = argc > 1 ? atoll(argv[1]) : 200000000LL;
    if (steps <= 0) {
        if (rank == 0)
            fprintf(stderr, "usage: %s [steps > 0]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }
    double step = 1.0 / (double)steps;

    long long q = steps / size, r = steps % size;
    long long lo = rank * q + (rank < r ? rank : r);
    long long hi = lo + q + (rank < r ? 1 : 0);

    double partial = 0.0, sum = 0.0;
    for (long long i = lo; i < hi; i++) {
        double x = ((double)i + 0.5) * step;
        partial += 4.0 / (1.0 + x * x);
    }
    MPI_Reduce(&partial, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

    if (rank == 0)
        printf("steps = %lld\npi    = %.10f\n", steps, sum * step);
    MPI_Finalize();
    return 0;
}
