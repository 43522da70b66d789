/* covariance (PolyBench/C 4.2, SMALL) */
#include "polybench.h"

#define M 80
#define N 100

static DATA_TYPE data[N][M], cov[M][M], mean[M];

int main(void)
{
    DATA_TYPE float_n = (DATA_TYPE)N;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] = ((DATA_TYPE)i * j) / M;

#pragma omp parallel
    {
#pragma omp for
        for (int j = 0; j < M; j++) {
            mean[j] = 0.0;
            for (int i = 0; i < N; i++)
                mean[j] += data[i][j];
            mean[j] /= float_n;
        }
#pragma omp for
        for (int i = 0; i < N; i++)
            for (int j = 0; j < M; j++)
                data[i][j] -= mean[j];
#pragma omp for schedule(dynamic)
        for (int i = 0; i < M; i++)
            for (int j = i; j < M; j++) {
                cov[i][j] = 0.0;
                for (int k = 0; k < N; k++)
                    cov[i][j] += data[k][i] * data[k][j];
                cov[i][j] /= (float_n - 1.0);
                cov[j][i] = cov[i][j];
            }
    }
    print_checksum("cov", &cov[0][0], M * M);
    return 0;
}
