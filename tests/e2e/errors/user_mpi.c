/* A program that calls MPI itself is refused at compile time: the runtime owns MPI, and with
 * the demand-driven merge a buffer given to MPI may lie in a page another rank holds, which
 * MPI cannot fetch (capecc used to pass it on to the backend, which failed on mpi.h's
 * predefined objects). */
#include <mpi.h>
#include <stdio.h>

static double a[4096];

int main(void)
{
    int size = 0;
#pragma omp parallel for
    for (int i = 0; i < 4096; i++)
        a[i] = i * 0.5;
    // expect-error: 17
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    printf("%d %g\n", size, a[4000]);
    return 0;
}
