/* mvt (PolyBench/C 4.2, SMALL): x1 := x1 + A*y1, x2 := x2 + A^T*y2 */
#include "polybench.h"

#define N 120

static DATA_TYPE A[N][N], x1[N], x2[N], y_1[N], y_2[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        x1[i] = (DATA_TYPE)(i % N) / N;
        x2[i] = (DATA_TYPE)((i + 1) % N) / N;
        y_1[i] = (DATA_TYPE)((i + 3) % N) / N;
        y_2[i] = (DATA_TYPE)((i + 4) % N) / N;
        for (int j = 0; j < N; j++)
            A[i][j] = (DATA_TYPE)(i * j % N) / N;
    }

#pragma omp parallel
    {
#pragma omp for nowait
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                x1[i] = x1[i] + A[i][j] * y_1[j];
#pragma omp for
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                x2[i] = x2[i] + A[j][i] * y_2[j];
    }
    print_checksum("x1", x1, N);
    print_checksum("x2", x2, N);
    return 0;
}
