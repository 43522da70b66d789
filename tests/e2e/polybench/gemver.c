/* gemver (PolyBench/C 4.2, SMALL): A := A + u1*v1^T + u2*v2^T, x := beta*A^T*y + z,
   w := alpha*A*x */
#include "polybench.h"

#define N 120

static DATA_TYPE A[N][N], u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];

int main(void)
{
    DATA_TYPE alpha = 1.5, beta = 1.2, fn = (DATA_TYPE)N;
    for (int i = 0; i < N; i++) {
        u1[i] = i;
        u2[i] = ((i + 1) / fn) / 2.0;
        v1[i] = ((i + 1) / fn) / 4.0;
        v2[i] = ((i + 1) / fn) / 6.0;
        y[i] = ((i + 1) / fn) / 8.0;
        z[i] = ((i + 1) / fn) / 9.0;
        x[i] = 0.0;
        w[i] = 0.0;
        for (int j = 0; j < N; j++)
            A[i][j] = (DATA_TYPE)(i * j % N) / N;
    }

#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
#pragma omp for
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                x[i] = x[i] + beta * A[j][i] * y[j];
#pragma omp for
        for (int i = 0; i < N; i++)
            x[i] = x[i] + z[i];
#pragma omp for
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                w[i] = w[i] + alpha * A[i][j] * x[j];
    }
    print_checksum("w", w, N);
    print_checksum("x", x, N);
    return 0;
}
