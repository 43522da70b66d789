/* heap block: x[i] reads x[i+1].
 * expect: race on x at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int main(void)
{
    int *x = malloc(64 * sizeof *x);
    for (int i = 0; i < 64; i++) x[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 64 - 1; i++)
        x[i] = x[i + 1] * 2;
    printf("%d\n", x[0]);
    free(x);
    return 0;
}
