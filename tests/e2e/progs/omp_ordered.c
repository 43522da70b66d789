/* ordered: the construct runs in iteration order; the rest of the loop may run anywhere */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 37
static double a[N];
static int order[N];
static int next_slot;

static void orphaned_ordered(int i)
{
#pragma omp ordered
    {
        order[next_slot++] = i; /* sequential order: slot k holds iteration k */
    }
}

int main(void)
{
    int i;
    double sum = 0.0;
    long long prefix[N];
    long long running = 0;

    /* printing in order, static schedule: the thread number is the schedule's owner */
#pragma omp parallel for ordered schedule(static)
    for (i = 0; i < 10; i++) {
        double v = i * 0.5;
#pragma omp ordered
        printf("static i=%d v=%.1f\n", i, v);
    }

    /* dynamic schedule with a chunk, a prefix sum that depends on the order */
#pragma omp parallel for ordered schedule(dynamic, 3)
    for (i = 0; i < N; i++) {
        long long w = (long long)i * i % 7;
#pragma omp ordered
        {
            running += w;
            prefix[i] = running;
        }
    }
    for (i = 0; i < N; i += 6)
        printf("prefix[%d] = %lld\n", i, prefix[i]);

    /* inside a parallel region, with a reduction, a lastprivate and loops counting down */
    int last = -1;
#pragma omp parallel shared(a)
    {
#pragma omp for ordered reduction(+ : sum) lastprivate(last) schedule(static, 2)
        for (i = N - 1; i >= 0; i--) {
            a[i] = i * 1.5;
            sum += a[i];
            last = i;
#pragma omp ordered
            printf("down %d\n", i);
        }
#pragma omp single
        printf("sum=%.1f last=%d a[5]=%.1f\n", sum, last, a[5]);
    }

    /* an orphaned ordered construct in a function called from the loop */
#pragma omp parallel for ordered schedule(guided)
    for (i = 0; i < N; i++)
        orphaned_ordered(i);
    int ok = 1;
    for (i = 0; i < N; i++)
        ok &= order[i] == i;
    printf("orphaned in order: %d (%d slots)\n", ok, next_slot);

    /* fewer iterations than threads, and none */
#pragma omp parallel for ordered
    for (i = 0; i < 2; i++) {
#pragma omp ordered
        printf("few %d\n", i);
    }
#pragma omp parallel for ordered
    for (i = 0; i < 0; i++) {
#pragma omp ordered
        printf("never %d\n", i);
    }

    /* doacross: ordered(1) with depend(sink)/depend(source) */
    static int chain[N];
    chain[0] = 1;
#pragma omp parallel for ordered(1)
    for (i = 1; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
        chain[i] = (chain[i - 1] * 3 + i) % 1000;
#pragma omp ordered depend(source)
    }
    printf("chain[N-1] = %d\n", chain[N - 1]);

    /* an ordered clause with a collapsed nest; the construct runs in (i, j) order */
    int seq = 0, grid[4][5];
#pragma omp parallel for ordered collapse(2)
    for (i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++) {
#pragma omp ordered
            grid[i][j] = seq++;
        }
    printf("grid[3][4]=%d grid[2][1]=%d\n", grid[3][4], grid[2][1]);
    return 0;
}
