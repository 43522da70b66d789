/* OpenMP 5.0 clauses that change nothing under CAPE: memory orders on atomic and flush,
   order(concurrent) on loops, nontemporal on simd */
#include <stdio.h>

#define N 500
double a[N], b[N];
int flag;

int main(void)
{
    long sum = 0, sub = 0, mul = 1;
    int seen = 0;
#pragma omp parallel for order(concurrent)
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
#pragma omp parallel for simd nontemporal(b) order(concurrent)
    for (int i = 0; i < N; i++)
        b[i] = 2 * a[i] + 1;
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i++) {
#pragma omp atomic relaxed
            sum += (long)b[i];
#pragma omp atomic update acq_rel
            sub -= i;
        }
#pragma omp single
        {
            flag = 1;
#pragma omp flush release
        }
#pragma omp flush acquire
#pragma omp atomic read acquire
        seen = flag;
#pragma omp flush acq_rel
#pragma omp for
        for (int i = 0; i < 10; i++) {
#pragma omp atomic release
            mul *= 2;
        }
    }
#pragma omp simd order(concurrent)
    for (int i = 0; i < N; i++)
        a[i] += b[i];
    printf("sum %ld sub %ld mul %ld seen %d a %.1f\n", sum, sub, mul, seen, a[N - 1]);
    return 0;
}
