/* bicg (PolyBench/C 4.2, SMALL): s := A^T * r, q := A * p */
#include "polybench.h"

#define M 116
#define N 124

static DATA_TYPE A[N][M], s[M], q[N], p[M], r[N];

int main(void)
{
    for (int i = 0; i < M; i++)
        p[i] = (DATA_TYPE)(i % M) / M;
    for (int i = 0; i < N; i++) {
        r[i] = (DATA_TYPE)(i % N) / N;
        for (int j = 0; j < M; j++)
            A[i][j] = (DATA_TYPE)(i * (j + 1) % N) / N;
    }

#pragma omp parallel for
    for (int j = 0; j < M; j++) {
        s[j] = 0;
        for (int i = 0; i < N; i++)
            s[j] = s[j] + r[i] * A[i][j];
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        q[i] = 0.0;
        for (int j = 0; j < M; j++)
            q[i] = q[i] + A[i][j] * p[j];
    }
    print_checksum("s", s, M);
    print_checksum("q", q, N);
    return 0;
}
