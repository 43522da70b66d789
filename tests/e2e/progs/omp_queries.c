/* e2e: openmp-only (omp_get_level inside a region)
   omp_* queries: facts that hold for every team size, checked inside regions and printed
   from master / sequential code */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
static int omp_get_max_threads(void) { return 1; }
static int omp_in_parallel(void) { return 0; }
static int omp_get_level(void) { return 0; }
static int omp_get_num_procs(void) { return 1; }
static double omp_get_wtime(void) { return 0; }
static double omp_get_wtick(void) { return 1e-9; }
#endif

#define MAXT 64
int seen[MAXT];

int main(void)
{
    int bad = 0, team = 0;
    printf("outside: num_threads=%d thread_num=%d in_parallel=%d level=%d\n",
           omp_get_num_threads(), omp_get_thread_num(), omp_in_parallel(), omp_get_level());
    int max_ok = omp_get_max_threads() >= 1 && omp_get_num_procs() >= 1;
    double t0 = omp_get_wtime();
#pragma omp parallel reduction(+ : bad)
    {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        if (me < 0 || me >= n || n > omp_get_max_threads())
            bad++;
        if (n > 1 && !omp_in_parallel())
            bad++;
        if (omp_get_level() != 1)
            bad++;
        if (me < MAXT)
            seen[me] = 1;
#pragma omp master
        {
            team = n;
            printf("master: thread_num=%d\n", omp_get_thread_num());
        }
    }
    int distinct = 0;
    for (int i = 0; i < MAXT; i++)
        distinct += seen[i];
    double t1 = omp_get_wtime();
    printf("bad=%d every_thread_seen=%d max_ok=%d time_ok=%d wtick_ok=%d\n", bad, distinct == team,
           max_ok, t1 >= t0, omp_get_wtick() > 0);
    return 0;
}
