/* a pointer to a second array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200], b[200];
int main(void)
{
    double *p = b;
    for (int i = 0; i < 200; i++) a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        p[i] = a[i] + 1;
    printf("%g\n", b[200 - 1]);
    return 0;
}
