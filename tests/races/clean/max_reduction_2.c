/* maximum with reduction(max).
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200];
int main(void)
{
    double mx = 0;
    for (int i = 0; i < 200; i++) a[i] = (i * 37) % 101;
#pragma omp parallel for reduction(max:mx)
    for (int i = 0; i < 200; i++)
        if (a[i] > mx) mx = a[i];
    printf("%g\n", mx);
    return 0;
}
