/* Shared scalars that change while a region runs: written in a `single`, through a pointer
   taken before the region, by a called function, by a reduction. Each must be read afresh
   after the barrier, never from a copy taken when the region started. */
#include <stdio.h>

static long out[120];

static void set_to(int *p, int v) { *p = v; }

int main(void)
{
    int n = 120, step = 1, limit = 0, base = 2, total = 0;
    int *alias = &step;
#pragma omp parallel
    {
#pragma omp single
        *alias = 5;
#pragma omp single
        limit = 90;
#pragma omp single
        set_to(&base, 11);
#pragma omp for reduction(+ : total)
        for (int i = 0; i < n; i++) {
            out[i] = i < limit ? (long)i * step + base : -1;
            total += 1;
        }
#pragma omp for
        for (int i = 0; i < n; i++)
            out[i] += total;
    }
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum += out[i] * (i % 7 + 1);
    printf("step=%d limit=%d base=%d total=%d sum=%ld out[89]=%ld out[90]=%ld\n", step, limit,
           base, total, sum, out[89], out[90]);
    return 0;
}
