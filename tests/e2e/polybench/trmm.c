/* trmm (PolyBench/C 4.2, SMALL): B := alpha * A^T * B, A unit lower triangular;
   the columns of B are independent */
#include "polybench.h"

#define M 60
#define N 80

static DATA_TYPE A[M][M], B[M][N];

int main(void)
{
    DATA_TYPE alpha = 1.5;
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < i; j++)
            A[i][j] = (DATA_TYPE)((i + j) % M) / M;
        A[i][i] = 1.0;
        for (int j = 0; j < N; j++)
            B[i][j] = (DATA_TYPE)((N + (i - j)) % N) / N;
    }

#pragma omp parallel for
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            for (int k = i + 1; k < M; k++)
                B[i][j] += A[k][i] * B[k][j];
            B[i][j] = alpha * B[i][j];
        }
    print_checksum("B", &B[0][0], M * N);
    return 0;
}
