/* for nowait: two independent loops without a barrier between them, then an explicit
   barrier before a loop that reads both */
#include <stdio.h>

#define N 500
int a[N], b[N], c[N];

int main(void)
{
#pragma omp parallel
    {
#pragma omp for nowait
        for (int i = 0; i < N; i++)
            a[i] = i * 3;
#pragma omp for schedule(static) nowait
        for (int i = 0; i < N; i++)
            b[i] = i ^ 0x55;
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            c[i] = a[N - 1 - i] + b[(i * 7) % N];
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 17 + c[i];
    printf("h=%ld c[0]=%d\n", h, c[0]);
    return 0;
}
