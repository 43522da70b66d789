/* a function without side effects called in the loop.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double out[200];
static double work(int i)
{
    return i * 2;
}
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++)
        out[i] = work(i);
    printf("%g\n", out[5]);
    return 0;
}
