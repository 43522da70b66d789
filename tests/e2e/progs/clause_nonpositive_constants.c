/* num_threads and schedule chunks given as constants of 0 or less: gcc warns ("value must be
   positive") and uses 1, so the teams below have one thread whatever the number of ranks */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_num_threads(void) { return 1; }
#endif

int a[64];
int team[3];

int main(void)
{
    long s = 0;
#pragma omp parallel num_threads(0)
    {
#pragma omp single
        team[0] = omp_get_num_threads();
    }
#pragma omp parallel num_threads(-3)
    {
#pragma omp single
        team[1] = omp_get_num_threads();
    }
#pragma omp parallel for num_threads(2 - 2) reduction(+: s)
    for (int i = 0; i < 64; i++) {
        s += i;
        if (i == 0)
            team[2] = omp_get_num_threads();
    }
#pragma omp parallel for schedule(static, -1)
    for (int i = 0; i < 64; i++)
        a[i] = 2 * i;
#pragma omp parallel for schedule(dynamic, 0) reduction(+: s)
    for (int i = 0; i < 64; i++)
        s += a[i];
    printf("%d %d %d %ld\n", team[0], team[1], team[2], s);
    return 0;
}
