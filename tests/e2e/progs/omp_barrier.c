/* barrier between dependent phases of a plain parallel region (hand-partitioned, so only
   the barrier orders phase 1 before phase 2) */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define N 512
int a[N], b[N], c[N];

int main(void)
{
#pragma omp parallel
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < N; i += team)
            a[i] = i * i % 1000;
#pragma omp barrier
        /* reads elements other threads wrote */
        for (int i = me; i < N; i += team)
            b[i] = a[N - 1 - i] + a[(i + 1) % N];
#pragma omp barrier
        for (int i = me; i < N; i += team)
            c[i] = b[(i * 5) % N] - a[i];
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 19 + c[i];
    printf("h=%ld c[0]=%d c[%d]=%d\n", h, c[0], N - 1, c[N - 1]);
    return 0;
}
