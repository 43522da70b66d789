/* two heap blocks, one read and one written.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void)
{
    double *x = malloc(200 * sizeof *x), *y = malloc(200 * sizeof *y);
    for (int i = 0; i < 200; i++) x[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 200 - 1; i++)
        y[i] = x[i + 1] * 2;
    printf("%g\n", y[0]);
    free(x);
    free(y);
    return 0;
}
