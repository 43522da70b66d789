/* a function writing only its own element.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double out[200];
static void work(double *slot, int i)
{
    *slot = i * 3;
}
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        work(&out[i], i);
    printf("%g\n", out[7]);
    return 0;
}
