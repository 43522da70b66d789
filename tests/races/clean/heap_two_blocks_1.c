/* two heap blocks, one read and one written.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void)
{
    int *x = malloc(64 * sizeof *x), *y = malloc(64 * sizeof *y);
    for (int i = 0; i < 64; i++) x[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 64 - 1; i++)
        y[i] = x[i + 1] * 2;
    printf("%d\n", y[0]);
    free(x);
    free(y);
    return 0;
}
