/* heap block: x[i] reads x[i+1].
 * expect: race on x at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void)
{
    double *x = malloc(200 * sizeof *x);
    for (int i = 0; i < 200; i++) x[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 200 - 1; i++)
        x[i] = x[i + 1] * 2;
    printf("%g\n", x[0]);
    free(x);
    return 0;
}
