/* allreduce_loop.c - the reference of scripts/bench_region.sh: an empty MPI_Allreduce of one
 * 8-byte value, timed like a region. usage: allreduce_loop REGIONS */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int regions = argc > 1 ? atoi(argv[1]) : 10000;
    double *times = malloc(sizeof(double) * (size_t)regions);
    long in = 1, out = 0;
    for (int r = 0; r < regions; r++) {
        double t0 = MPI_Wtime();
        MPI_Allreduce(&in, &out, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        times[r] = MPI_Wtime() - t0;
    }
    int skip = regions / 10;
    double sum = 0;
    for (int r = skip; r < regions; r++)
        sum += times[r];
    qsort(times + skip, (size_t)(regions - skip), sizeof(double), cmp);
    if (rank == 0)
        printf("allreduce regions %d median_us %.2f mean_us %.2f\n", regions - skip,
               1e6 * times[skip + (regions - skip) / 2], 1e6 * sum / (regions - skip));
    MPI_Finalize();
    return 0;
}
