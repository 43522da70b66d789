/* schedule(static, 1) into another array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double w[200 + 1], z[200];
int main(void)
{
    for (int i = 0; i <= 200; i++) w[i] = i;
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 200; i++)
        z[i] = w[i + 1] + i;
    printf("%g\n", z[0]);
    return 0;
}
