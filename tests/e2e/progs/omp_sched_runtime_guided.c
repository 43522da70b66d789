/* schedule(runtime) with OMP_SCHEDULE=guided,5 (omp_sched_runtime_guided.env), combined
   parallel for and a for inside parallel */
#include <stdio.h>

#define N 1234
double a[N], b[N];

int main(void)
{
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < N; i++)
        a[i] = (i % 11) * 1.25 + (i % 3);
#pragma omp parallel
    {
#pragma omp for schedule(runtime)
        for (int i = 1; i < N - 1; i++)
            b[i] = a[i - 1] - 2 * a[i] + a[i + 1];
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += b[i] * (i % 5);
    printf("s=%.3f b[1]=%.3f\n", s, b[1]);
    return 0;
}
