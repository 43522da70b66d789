/* schedule(static, c) with c not dividing n, c = 1, c > n, and plain static */
#include <stdio.h>

#define N 103

int main(void)
{
    int a[N], b[N], c[N], d[N];
    int chunk = 5;
#pragma omp parallel for schedule(static, 7)
    for (int i = 0; i < N; i++)
        a[i] = i * i;
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < N; i++)
        b[i] = a[i] - i;
#pragma omp parallel for schedule(static, 500)
    for (int i = 0; i < N; i++)
        c[i] = b[i] / 2;
#pragma omp parallel for schedule(static, chunk * 2 + 1)
    for (int i = N - 1; i >= 0; i--)
        d[i] = c[i] + a[N - 1 - i];
    int e = 0;
#pragma omp parallel for schedule(static) lastprivate(e)
    for (int i = 0; i < N; i++)
        e = d[i];
    unsigned long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 131 + d[i];
    printf("hash=%lu d[0]=%d d[%d]=%d e=%d\n", h, d[0], N - 1, d[N - 1], e);
    return 0;
}
