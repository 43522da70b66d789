/* single copyprivate: one thread computes private values, every thread receives them */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define N 360
double out[N];

int main(void)
{
#pragma omp parallel
    {
        double factor;
        int shift;
        int pair[2];
#pragma omp single copyprivate(factor, shift, pair)
        {
            factor = 0.75;
            shift = 9;
            pair[0] = 4;
            pair[1] = 5;
        }
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < N; i += team)
            out[i] = factor * i + shift + pair[i % 2];
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += out[i] * ((i % 3) + 1);
    printf("s=%.2f out[7]=%.2f\n", s, out[7]);
    return 0;
}
