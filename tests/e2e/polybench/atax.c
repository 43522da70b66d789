/* atax (PolyBench/C 4.2, SMALL): y := A^T * (A * x) */
#include "polybench.h"

#define M 116
#define N 124

static DATA_TYPE A[M][N], x[N], y[N], tmp[M];

int main(void)
{
    DATA_TYPE fn = (DATA_TYPE)N;
    for (int i = 0; i < N; i++)
        x[i] = 1 + (i / fn);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            A[i][j] = (DATA_TYPE)((i + j) % N) / (5 * M);

#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < M; i++) {
            tmp[i] = 0.0;
            for (int j = 0; j < N; j++)
                tmp[i] = tmp[i] + A[i][j] * x[j];
        }
        /* column-wise so that each y[j] has one writer */
#pragma omp for
        for (int j = 0; j < N; j++) {
            y[j] = 0;
            for (int i = 0; i < M; i++)
                y[j] = y[j] + A[i][j] * tmp[i];
        }
    }
    print_checksum("y", y, N);
    return 0;
}
