/* a function writing only its own element.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int out[64];
static void work(int *slot, int i)
{
    *slot = i * 3;
}
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        work(&out[i], i);
    printf("%d\n", out[7]);
    return 0;
}
