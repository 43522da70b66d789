/* a parallel loop inside a function called many times with different
 * arguments, from sequential code and at different stack depths */
#include <stdio.h>

static void axpy(double a, const double *x, double *y, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        y[i] += a * x[i];
}

static double run(int depth, double *y, const double *x, int n)
{
    double pad[8] = {depth};
    if (depth > 0)
        return run(depth - 1, y, x, n) + pad[0];
    axpy(0.5, x, y, n);
    return 0;
}

int main(void)
{
    double x[77], y[77];
    for (int i = 0; i < 77; i++) {
        x[i] = i;
        y[i] = 1;
    }
    double t = 0;
    for (int k = 0; k < 6; k++)
        t += run(k, y, x, 77 - k * 10);
    double s = 0;
    for (int i = 0; i < 77; i++)
        s += y[i] * (i + 1);
    printf("t=%.1f s=%.3f y[5]=%.3f y[76]=%.3f\n", t, s, y[5], y[76]);
    return 0;
}
