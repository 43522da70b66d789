/* orphaned `for`: the same function called inside a parallel region (work-shared) and
   outside one (runs all iterations), with a reduction */
#include <stdio.h>

#define N 600
double u[N], v[N];
double norm; /* shared: a reduction variable must be shared in the enclosing region */

static void smooth(double *dst, const double *src, int n)
{
#pragma omp for reduction(+ : norm)
    for (int i = 1; i < n - 1; i++) {
        dst[i] = (src[i - 1] + 2 * src[i] + src[i + 1]) / 4;
        norm += dst[i] * dst[i];
    }
}

int main(void)
{
    for (int i = 0; i < N; i++)
        u[i] = (i * 7) % 19;
    smooth(v, u, N);
    double serial = norm;
    norm = 0;
#pragma omp parallel
    smooth(u, v, N);
    double in_region = norm;
    printf("serial=%.4f in_region=%.4f u[5]=%.4f\n", serial, in_region, u[5]);
    return 0;
}
