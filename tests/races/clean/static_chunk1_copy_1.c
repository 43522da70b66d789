/* schedule(static, 1) into another array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int w[64 + 1], z[64];
int main(void)
{
    for (int i = 0; i <= 64; i++) w[i] = i;
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 64; i++)
        z[i] = w[i + 1] + i;
    printf("%d\n", z[0]);
    return 0;
}
