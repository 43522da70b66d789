/* sections inside parallel: independent pieces of work, lastprivate, reduction, and a
   following loop that needs all of them (implicit barrier) */
#include <stdio.h>

#define N 300
int a[N], b[N], c[N], d[N];

int main(void)
{
    int which = 0;
    long sum = 0;
#pragma omp parallel
    {
#pragma omp sections lastprivate(which) reduction(+ : sum)
        {
#pragma omp section
            {
                for (int i = 0; i < N; i++)
                    a[i] = i;
                which = 1;
                sum += 1;
            }
#pragma omp section
            {
                for (int i = 0; i < N; i++)
                    b[i] = 2 * i;
                which = 2;
                sum += 20;
            }
#pragma omp section
            {
                for (int i = 0; i < N; i++)
                    c[i] = i * i;
                which = 3;
                sum += 300;
            }
        }
#pragma omp for
        for (int i = 0; i < N; i++)
            d[i] = a[i] + b[i] + c[i];
#pragma omp sections nowait
        {
            a[0] = -1;
#pragma omp section
            b[0] = -2;
        }
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 7 + d[i];
    printf("which=%d sum=%ld h=%ld a0=%d b0=%d\n", which, sum, h, a[0], b[0]);
    return 0;
}
