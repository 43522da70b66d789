/* reads the next element of another array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200 + 1], b[200];
int main(void)
{
    for (int i = 0; i <= 200; i++) a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        b[i] = a[i + 1] + 1;
    printf("%g\n", b[200/2]);
    return 0;
}
