/* cholesky (PolyBench/C 4.2, SMALL): right-looking Cholesky; per step the column is scaled
   and the trailing lower triangle updated in parallel */
#include <math.h>
#include "polybench.h"

#define N 120

static DATA_TYPE A[N][N], Bm[N][N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        for (int j = 0; j <= i; j++)
            A[i][j] = (DATA_TYPE)(-j % N) / N + 1;
        for (int j = i + 1; j < N; j++)
            A[i][j] = 0;
        A[i][i] = 1;
    }
    for (int r = 0; r < N; r++)
        for (int s = 0; s < N; s++) {
            Bm[r][s] = 0;
            for (int t = 0; t < N; t++)
                Bm[r][s] += A[r][t] * A[s][t];
        }
    for (int r = 0; r < N; r++)
        for (int s = 0; s < N; s++)
            A[r][s] = Bm[r][s];

    for (int k = 0; k < N; k++) {
        A[k][k] = sqrt(A[k][k]);
#pragma omp parallel
        {
#pragma omp for
            for (int i = k + 1; i < N; i++)
                A[i][k] /= A[k][k];
#pragma omp for schedule(dynamic, 2)
            for (int i = k + 1; i < N; i++)
                for (int j = k + 1; j <= i; j++)
                    A[i][j] -= A[i][k] * A[j][k];
        }
    }
    /* the upper triangle keeps the input values; print the factor only */
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            A[i][j] = 0;
    print_checksum("L", &A[0][0], N * N);
    return 0;
}
