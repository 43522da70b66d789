/* a flag set with `atomic write` and read with `atomic read` in a loop: each thread waits
   for the one before it, then adds its share to a running total (an ordered chain) */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAXT 64

int turn;
long total;
long parts[MAXT];

int main(void)
{
#pragma omp parallel
    {
        int iam = 0, nt = 1;
#ifdef _OPENMP
        iam = omp_get_thread_num();
        nt = omp_get_num_threads();
#endif
        long mine = 0;
#pragma omp for schedule(static)
        for (int i = 1; i <= 1000; i++)
            mine += (long)i * i % 1009;
        for (;;) {
            int seen;
#pragma omp atomic read
            seen = turn;
            if (seen == iam)
                break;
        }
        /* in thread order: each thread sees the sum of the blocks before its own */
        total = total + mine;
        parts[iam] = total;
#pragma omp atomic write
        turn = iam + 1;
#pragma omp barrier
#pragma omp single
        {
            int t;
            for (t = 1; t < nt; t++)
                if (parts[t] < parts[t - 1])
                    printf("wrong order at %d\n", t);
        }
    }
    printf("total %ld, last part %ld\n", total, parts[0] > total ? -1L : total);
    return 0;
}
