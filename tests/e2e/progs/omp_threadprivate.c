/* threadprivate: a per-thread accumulator kept across two regions, folded under critical;
   also a static local declared threadprivate */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

long partial;
#pragma omp threadprivate(partial)

static int bump(void)
{
    static int calls;
#pragma omp threadprivate(calls)
    return ++calls;
}

int main(void)
{
    long total = 0;
    int bumps = 0;
#pragma omp parallel
    {
        partial = 0;
#pragma omp for
        for (int i = 0; i < 1000; i++)
            partial += i;
    }
#pragma omp parallel reduction(+ : bumps)
    {
#pragma omp for
        for (int i = 1000; i < 2000; i++) {
            partial += i;
            bump();
        }
#pragma omp critical
        total += partial;
        bumps = bump() > 0;
    }
    (void)bumps;
    printf("total=%ld\n", total);
    return 0;
}
