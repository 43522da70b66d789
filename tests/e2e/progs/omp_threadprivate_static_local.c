/* threadprivate static locals: per-thread copies that persist across regions, first used inside
   a parallel region (in a function called by every thread, and in one called by only some of
   them), copyin of a static local, and sequential code seeing the master's copy.
   e2e: openmp-only */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
#endif

static int bump(int by)
{
    static int calls = 100;
#pragma omp threadprivate(calls)
    calls += by;
    return calls;
}

/* called only by the thread that runs iteration 0 */
static int rare(void)
{
    static int seen = 7;
#pragma omp threadprivate(seen)
    return ++seen;
}

int main(void)
{
    static long scale = 1;
#pragma omp threadprivate(scale)
    int bad = 0, first = 0;
#pragma omp parallel reduction(+ : bad)
    {
        int me = omp_get_thread_num();
        if (bump(me + 1) != 100 + me + 1) /* first call: each thread's own copy from 100 */
            bad++;
        if (bump(me + 1) != 100 + 2 * (me + 1))
            bad++;
    }
#pragma omp parallel for reduction(+ : first)
    for (int i = 0; i < 4; i++)
        if (i == 0)
            first += rare();
    scale = 10;
#pragma omp parallel copyin(scale) reduction(+ : bad)
    {
        int me = omp_get_thread_num();
        if (scale != 10) /* every thread starts from the master's 10 */
            bad++;
        scale += me;
        if (bump(0) != 100 + 2 * (me + 1)) /* still each thread's copy */
            bad++;
    }
#pragma omp parallel reduction(+ : bad)
    {
        if (scale != 10 + omp_get_thread_num()) /* persists per thread */
            bad++;
    }
    /* sequential code sees the master's copies */
    printf("bad=%d bump=%d scale=%ld first=%d rare=%d\n", bad, bump(0), scale, first, rare());
    return 0;
}
