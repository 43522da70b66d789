/* Device constructs run on the host, as gcc runs them without offloading: target regions
   with their firstprivate scalars, target data / enter / exit / update, declare target,
   teams (a league of one team), distribute, and the combined forms spread over the team.
   e2e: openmp-only (target copies of scalars, which the program without OpenMP does not make) */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_num_teams(void) { return 1; }
static int omp_get_team_num(void) { return 0; }
static int omp_get_num_devices(void) { return 0; }
static int omp_is_initial_device(void) { return 1; }
#endif

#define N 1000
#define M 40

#pragma omp declare target
double scale = 2.0;
static double twice(double v) { return scale * v; }
#pragma omp end declare target

int counter;
#pragma omp declare target(counter)

double a[N], b[N], c[M][M];

int main(void)
{
    int n = N, written = 1, i, j;
    double sum = 0.0, dot = 0.0;
    double *p = a;

#pragma omp target enter data map(to: a[0:N]) map(alloc: b[0:N])
#pragma omp target teams distribute parallel for map(to: a[0:N]) map(from: b[0:N])
    for (i = 0; i < n; i++) {
        a[i] = i * 0.5;
        b[i] = twice(a[i]) + 1;
    }
#pragma omp target update from(b[0:N])
#pragma omp target exit data map(delete: a[0:N]) map(release: b[0:N])

#pragma omp target data map(tofrom: sum) map(to: b[0:N])
    {
#pragma omp target parallel for reduction(+:sum) map(tofrom: sum)
        for (i = 0; i < n; i++)
            sum += b[i];
    }

    /* unmapped scalars written in a target region are its own copies */
#pragma omp target
    {
        written = 42;
        n = 7;
        p = b;
        counter = 5; /* declare target: the device's own, here the host's */
        a[0] = -1.0;
    }

#pragma omp target teams distribute parallel for collapse(2) map(tofrom: c)
    for (i = 0; i < M; i++)
        for (j = 0; j < M; j++)
            c[i][j] = i * M + j;

    int teams = 0, team = -1;
#pragma omp target teams map(tofrom: teams, team) num_teams(4) thread_limit(8)
    {
        teams = omp_get_num_teams();
        team = omp_get_team_num();
    }

    i = -5;
#pragma omp target teams distribute reduction(+:dot) map(tofrom: dot)
    for (i = 0; i < M; i++)
        dot += c[i][i];

#pragma omp target simd reduction(+:dot)
    for (j = 0; j < M; j++)
        dot += 1;

#pragma omp target parallel if(target: n > 0) if(parallel: 1) map(tofrom: counter)
    {
#pragma omp atomic
        counter += 2;
    }
    counter %= 2;

    printf("b[N-1]=%.1f sum=%.1f written=%d n=%d p=%d counter=%d a0=%.1f\n", b[N - 1], sum,
           written, n, p == a, counter, a[0]);
    /* the number of teams is the implementation's choice (at most num_teams): capecc makes one */
    printf("c=%.0f league=%d i=%d dot=%.0f devices=%d initial=%d\n", c[M - 1][M - 2],
           teams >= 1 && team >= 0 && team < teams, i, dot, omp_get_num_devices(),
           omp_is_initial_device());
    return 0;
}
