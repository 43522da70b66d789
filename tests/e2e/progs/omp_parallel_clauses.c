/* e2e: openmp-only (firstprivate copies)
   parallel with private, firstprivate, shared, default(shared) and default(none) */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define N 240
int out1[N], out2[N], out3[N];

int main(void)
{
    int base = 7, tmp = -1, scale = 3;
    int n = N;
#pragma omp parallel private(tmp) firstprivate(base) shared(n)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        base += 100; /* our own copy, initialised to 7 */
        for (int i = me; i < n; i += team) {
            tmp = i * scale;
            out1[i] = tmp + base;
        }
    }
#pragma omp parallel default(shared)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < n; i += team)
            out2[i] = out1[i] - base;
    }
#pragma omp parallel default(none) shared(out3, out2, n, scale)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        for (int i = me; i < n; i += team)
            out3[i] = out2[i] * scale;
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 31 + out1[i] + out2[i] + out3[i];
    printf("base=%d h=%ld out3[%d]=%d\n", base, h, N - 1, out3[N - 1]);
    return 0;
}
