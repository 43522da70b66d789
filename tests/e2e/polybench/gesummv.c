/* gesummv (PolyBench/C 4.2, SMALL): y := alpha*A*x + beta*B*x */
#include "polybench.h"

#define N 90

static DATA_TYPE A[N][N], B[N][N], tmp[N], x[N], y[N];

int main(void)
{
    DATA_TYPE alpha = 1.5, beta = 1.2;
    for (int i = 0; i < N; i++) {
        x[i] = (DATA_TYPE)(i % N) / N;
        for (int j = 0; j < N; j++) {
            A[i][j] = (DATA_TYPE)((i * j + 1) % N) / N;
            B[i][j] = (DATA_TYPE)((i * j + 2) % N) / N;
        }
    }

#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        tmp[i] = 0.0;
        y[i] = 0.0;
        for (int j = 0; j < N; j++) {
            tmp[i] = A[i][j] * x[j] + tmp[i];
            y[i] = B[i][j] * x[j] + y[i];
        }
        y[i] = alpha * tmp[i] + beta * y[i];
    }
    print_checksum("y", y, N);
    return 0;
}
