/* two loops in one region, the implicit barrier between them.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double u[200], v[200];
int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < 200; i++)
            u[i] = i * 2;
#pragma omp for
        for (int i = 0; i < 200; i++)
            v[i] = u[200 - 1 - i];
    }
    printf("%g\n", v[0]);
    return 0;
}
