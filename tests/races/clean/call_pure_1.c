/* a function without side effects called in the loop.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int out[64];
static int work(int i)
{
    return i * 2;
}
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        out[i] = work(i);
    printf("%d\n", out[5]);
    return 0;
}
