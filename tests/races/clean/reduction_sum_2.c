/* reduction.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200];
int main(void)
{
    double sum = 0;
    for (int i = 0; i < 200; i++) a[i] = i % 7;
#pragma omp parallel for reduction(+:sum)
    for (int i = 0; i < 200; i++)
        sum += a[i];
    printf("%g\n", sum);
    return 0;
}
