/* syr2k (PolyBench/C 4.2, SMALL): C := alpha*A*B^T + alpha*B*A^T + beta*C, lower triangle */
#include "polybench.h"

#define M 60
#define N 80

static DATA_TYPE A[N][M], B[N][M], C[N][N];

int main(void)
{
    DATA_TYPE alpha = 1.5, beta = 1.2;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
            A[i][j] = (DATA_TYPE)((i * j + 1) % N) / N;
            B[i][j] = (DATA_TYPE)((i * j + 2) % M) / M;
        }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            C[i][j] = (DATA_TYPE)((i * j + 3) % N) / M;

#pragma omp parallel for schedule(static, 3)
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            C[i][j] *= beta;
        for (int k = 0; k < M; k++)
            for (int j = 0; j <= i; j++)
                C[i][j] += A[j][k] * alpha * B[i][k] + B[j][k] * alpha * A[i][k];
    }
    print_checksum("C", &C[0][0], N * N);
    return 0;
}
