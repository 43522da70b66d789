/* master: only thread 0 runs the block (no barrier), prints from master */
#include <stdio.h>

#define N 250
int a[N], b[N];
int flag;

int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = i % 17;
#pragma omp master
        {
            flag = 42;
            a[0] = 100;
            printf("master sees a[%d]=%d\n", N - 1, a[N - 1]);
        }
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            b[i] = a[i] + flag;
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 5 + b[i];
    printf("h=%ld b0=%d\n", h, b[0]);
    return 0;
}
