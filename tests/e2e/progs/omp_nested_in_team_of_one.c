/* a parallel region nested in an inactive one (a team of one: `num_threads(1)` or `if(0)`) is
   the first active level, so it gets a full team, as with gcc; one nested in an active region
   runs with one thread (nesting disabled). Printed as facts that hold for every P.
   e2e: openmp-only */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_max_threads(void) { return 1; }
static int omp_get_num_threads(void) { return 1; }
static int omp_get_thread_num(void) { return 0; }
static int omp_get_level(void) { return 0; }
static int omp_get_active_level(void) { return 0; }
#endif

static void report(const char *what, int outer_max)
{
    int threads = 0, level = 0, active = 0, ok = 0;
#pragma omp parallel reduction(+ : ok)
    {
#pragma omp single
        {
            threads = omp_get_num_threads();
            level = omp_get_level();
            active = omp_get_active_level();
        }
        ok += omp_get_thread_num() < omp_get_num_threads();
    }
    printf("%s: full=%d level=%d active_ok=%d ok=%d\n", what, threads == outer_max, level,
           active == (outer_max > 1), ok == threads);
}

int main(void)
{
    int max = omp_get_max_threads();
#pragma omp parallel num_threads(1)
    report("num_threads(1)", max);
#pragma omp parallel if (0)
    report("if(0)", max);
    int inner = 0;
#pragma omp parallel
    {
#pragma omp parallel
        {
#pragma omp single
            inner = omp_get_num_threads() * 10 + omp_get_level();
        }
    }
    printf("nested in an active region: %d\n", max > 1 ? inner : 12);
    return 0;
}
