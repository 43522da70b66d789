/* heat-3d (PolyBench/C 4.2, SMALL): 3-D stencil, collapse(2) over the outer planes */
#include "polybench.h"

#define TSTEPS 40
#define N 20

static DATA_TYPE A[N][N][N], B[N][N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            for (int k = 0; k < N; k++)
                A[i][j][k] = B[i][j][k] = (DATA_TYPE)(i + j + (N - k)) * 10 / N;
#pragma omp parallel
    for (int t = 1; t <= TSTEPS; t++) {
#pragma omp for collapse(2)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
                                 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
                                 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) +
                                 A[i][j][k];
#pragma omp for collapse(2)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                for (int k = 1; k < N - 1; k++)
                    A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k]) +
                                 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k]) +
                                 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) +
                                 B[i][j][k];
    }
    print_checksum("A", &A[0][0][0], N * N * N);
    return 0;
}
