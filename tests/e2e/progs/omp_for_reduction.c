/* reduction on `for` inside `parallel`, several operators and types, twice on one variable */
#include <stdio.h>

#define N 1000
int v[N];

int main(void)
{
    long sum = 0;
    int mx = -1, mn = 1 << 30;
    long long prod = 1;
    int all = 1, any = 0;
    unsigned xr = 0;
    for (int i = 0; i < N; i++)
        v[i] = (i * 7919) % 1009;
#pragma omp parallel
    {
#pragma omp for reduction(+ : sum) reduction(max : mx) reduction(min : mn)
        for (int i = 0; i < N; i++) {
            sum += v[i];
            if (v[i] > mx)
                mx = v[i];
            if (v[i] < mn)
                mn = v[i];
        }
#pragma omp for reduction(* : prod) reduction(&& : all) reduction(|| : any) reduction(^ : xr)
        for (int i = 0; i < N; i++) {
            if (i % 100 == 3)
                prod *= 3;
            all = all && v[i] >= 0;
            any = any || v[i] == 1008;
            xr ^= (unsigned)v[i] * 2654435761u;
        }
#pragma omp for reduction(+ : sum)
        for (int i = 0; i < N; i++)
            sum += 1;
    }
    printf("sum=%ld max=%d min=%d prod=%lld all=%d any=%d xor=%u\n", sum, mx, mn, prod, all, any,
           xr);
    return 0;
}
