/* correlation (PolyBench/C 4.2, SMALL) */
#include <math.h>
#include "polybench.h"

#define M 80
#define N 100

static DATA_TYPE data[N][M], corr[M][M], mean[M], stddev[M];

int main(void)
{
    DATA_TYPE float_n = (DATA_TYPE)N, eps = 0.1;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            data[i][j] = (DATA_TYPE)((i * j) % 17) / M + i * 0.01;

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
        for (int j = 0; j < M; j++) {
            stddev[j] = 0.0;
            for (int i = 0; i < N; i++)
                stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
            stddev[j] /= float_n;
            stddev[j] = sqrt(stddev[j]);
            stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
        }
#pragma omp for
        for (int i = 0; i < N; i++)
            for (int j = 0; j < M; j++) {
                data[i][j] -= mean[j];
                data[i][j] /= sqrt(float_n) * stddev[j];
            }
#pragma omp for schedule(static, 1)
        for (int i = 0; i < M - 1; i++) {
            corr[i][i] = 1.0;
            for (int j = i + 1; j < M; j++) {
                corr[i][j] = 0.0;
                for (int k = 0; k < N; k++)
                    corr[i][j] += (data[k][i] * data[k][j]);
                corr[j][i] = corr[i][j];
            }
        }
    }
    corr[M - 1][M - 1] = 1.0;
    print_checksum("corr", &corr[0][0], M * M);
    return 0;
}
