/* loop shapes: negative and non-unit steps, <=, >=, >, != tests
 * (OpenMP allows != only with a step of +1 or -1) */
#include <stdio.h>

#define N 200
int a[N];

static unsigned long hash(void)
{
    unsigned long h = 1469598103934665603UL;
    for (int i = 0; i < N; i++)
        h = (h ^ (unsigned)a[i]) * 1099511628211UL;
    return h;
}

int main(void)
{
    int i;
#pragma omp parallel for
    for (i = N - 1; i >= 0; i--)
        a[i] = i;
    printf("down>=0  %016lx\n", hash());
#pragma omp parallel for
    for (i = 3; i <= 150; i += 3)
        a[i] += 1000;
    printf("step3<=  %016lx\n", hash());
#pragma omp parallel for
    for (i = 190; i > 10; i -= 7)
        a[i] *= 2;
    printf("step-7>  %016lx\n", hash());
#pragma omp parallel for
    for (i = 0; i != 100; i++)
        a[i] -= 5;
    printf("ne+1     %016lx\n", hash());
#pragma omp parallel for
    for (i = 199; i != 19; i--)
        a[i] ^= 0x55;
    printf("ne-1     %016lx\n", hash());
#pragma omp parallel for
    for (i = -50; i < 50; i += 11)
        a[i + 50] += i;
    printf("neg-lb   %016lx\n", hash());
#pragma omp parallel for
    for (i = 199; i >= 199; i--)
        a[i] = -7;
    printf("one-iter %016lx a[199]=%d a[3]=%d a[190]=%d\n", hash(), a[199], a[3], a[190]);
    return 0;
}
