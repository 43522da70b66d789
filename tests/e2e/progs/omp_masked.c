/* masked (OpenMP 5.1, accepted by gcc 12): without a filter it is master; filter(0) too */
#include <stdio.h>

#define N 200
int a[N];
int m1, m2;

int main(void)
{
#pragma omp parallel
    {
#pragma omp masked
        m1 = 7;
#pragma omp masked filter(0)
        {
            m2 = 11;
            printf("masked block\n");
        }
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            a[i] = i * m1 + m2;
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 3 + a[i];
    printf("m1=%d m2=%d h=%ld\n", m1, m2, h);
    return 0;
}
