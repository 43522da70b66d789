/* threadprivate: a per-thread accumulator kept across two regions, folded under critical
   (threadprivate static locals are refused: see tests/e2e/errors/threadprivate_static_local.c) */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

long partial;
#pragma omp threadprivate(partial)

int main(void)
{
    long total = 0;
#pragma omp parallel
    {
        partial = 0;
#pragma omp for
        for (int i = 0; i < 1000; i++)
            partial += i;
    }
#pragma omp parallel
    {
#pragma omp for
        for (int i = 1000; i < 2000; i++)
            partial += i;
#pragma omp critical
        total += partial;
    }
    printf("total=%ld\n", total);
    return 0;
}
