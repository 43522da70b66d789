/* parallel if(...) and num_threads(...): a false if or num_threads(1) gives a team of one;
   num_threads(2) a team of at most two */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define N 300
int a[N], b[N], c[N];

int main(void)
{
    int n = N, one_team = 0, small_team = 0;
#pragma omp parallel if (n < 10)
    {
        if (omp_get_thread_num() == 0)
            one_team = omp_get_num_threads();
        for (int i = omp_get_thread_num(); i < n; i += omp_get_num_threads())
            a[i] = i + 1;
    }
#pragma omp parallel num_threads(1)
    {
        if (omp_get_thread_num() == 0)
            one_team += omp_get_num_threads();
        for (int i = omp_get_thread_num(); i < n; i += omp_get_num_threads())
            b[i] = a[i] * 2;
    }
#pragma omp parallel num_threads(2) if (n > 10)
    {
        if (omp_get_thread_num() == 0)
            small_team = omp_get_num_threads() <= 2;
        for (int i = omp_get_thread_num(); i < n; i += omp_get_num_threads())
            c[i] = b[i] - a[i] + 3;
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 7 + a[i] + b[i] + c[i];
    printf("one_team=%d small_team=%d h=%ld\n", one_team, small_team, h);
    return 0;
}
