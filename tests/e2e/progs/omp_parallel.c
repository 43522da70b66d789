/* plain `parallel`: each thread takes every n-th element by its thread number (an SPMD
   partition written by hand), private locals declared inside the region */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define N 1001
double a[N];
int owner_ok[N];

int main(void)
{
    int n = N;
#pragma omp parallel
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < n; i += team) {
            double x = i * 0.5;
            a[i] = x * x + 1.0;
            owner_ok[i] = (i % team == me);
        }
    }
    double s = 0;
    int ok = 0;
    for (int i = 0; i < N; i++) {
        s += a[i];
        ok += owner_ok[i];
    }
    printf("sum=%.3f ok=%d a[17]=%.2f\n", s, ok, a[17]);
    return 0;
}
