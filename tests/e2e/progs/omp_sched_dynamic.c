/* schedule(dynamic) with the default chunk of 1 and larger chunks; uneven work per iteration, a reduction and lastprivate on the same loops */
#include <stdio.h>

#define N 997
long work[N];
int tag[N];

static long cost(int i)
{
    long s = 0;
    for (int k = 0; k < (i % 37) * 20; k++)
        s += (k ^ i) & 7;
    return s;
}

int main(void)
{
    long total = 0;
    int last = -1;
#pragma omp parallel
    {
#pragma omp for schedule(dynamic) reduction(+ : total)
        for (int i = 0; i < N; i++) {
            work[i] = cost(i);
            total += work[i];
        }
#pragma omp for schedule(dynamic, 4) lastprivate(last)
        for (int i = N - 1; i >= 0; i -= 2) {
            tag[i] = (int)(work[i] % 101) + i;
            last = i;
        }
    }
#pragma omp parallel for schedule(dynamic, 64)
    for (int i = 0; i < N; i += 2)
        tag[i] = -(int)work[N - 1 - i];
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 31 + tag[i];
    printf("total=%ld last=%d h=%ld\n", total, last, h);
    return 0;
}
