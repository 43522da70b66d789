/* `register` parameters (and locals) used inside regions: the hint is dropped */
#include <stdio.h>

static long triangle(register int n)
{
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

static void scale(register double *v, register int n, register double by)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        v[i] *= by;
}

int main(void)
{
    double v[64];
    for (int i = 0; i < 64; i++)
        v[i] = i;
    scale(v, 64, 1.5);
    printf("%ld %ld %.1f %.1f\n", triangle(1000), triangle(7), v[3], v[63]);
    return 0;
}
