/* simd, for simd and parallel for simd (with simdlen / safelen / aligned / linear clauses):
   the loops stay correct */
#include <stdio.h>

#define N 1024
float x[N], y[N];
double z[N];

int main(void)
{
#pragma omp simd
    for (int i = 0; i < N; i++)
        x[i] = (i % 10) * 0.5f;
#pragma omp parallel for simd
    for (int i = 0; i < N; i++)
        y[i] = 2.0f * x[i] + 1.0f;
    double dot = 0;
#pragma omp parallel
    {
#pragma omp for simd reduction(+ : dot) schedule(static)
        for (int i = 0; i < N; i++) {
            z[i] = x[i] * (double)y[i];
            dot += (i % 4) * 0.25;
        }
    }
    int j = 0;
#pragma omp simd safelen(8) simdlen(4) linear(j : 2)
    for (int i = 0; i < N / 2; i++) {
        z[i] += j;
        j += 2;
    }
#pragma omp simd aligned(x : 16) reduction(max : dot)
    for (int i = 0; i < N; i++)
        if (x[i] > dot)
            dot = x[i];
    double s = 0;
    for (int i = 0; i < N; i++)
        s += z[i];
    printf("s=%.2f dot=%.2f j=%d\n", s, dot, j);
    return 0;
}
