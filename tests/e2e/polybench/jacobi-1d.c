/* jacobi-1d (PolyBench/C 4.2, SMALL): time loop inside one parallel region */
#include "polybench.h"

#define TSTEPS 40
#define N 120

static DATA_TYPE A[N], B[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        A[i] = ((DATA_TYPE)i + 2) / N;
        B[i] = ((DATA_TYPE)i + 3) / N;
    }
#pragma omp parallel
    for (int t = 0; t < TSTEPS; t++) {
#pragma omp for
        for (int i = 1; i < N - 1; i++)
            B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
#pragma omp for
        for (int i = 1; i < N - 1; i++)
            A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
    }
    print_checksum("A", A, N);
    return 0;
}
