/* reduction.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64];
int main(void)
{
    int sum = 0;
    for (int i = 0; i < 64; i++) a[i] = i % 7;
#pragma omp parallel for reduction(+:sum)
    for (int i = 0; i < 64; i++)
        sum += a[i];
    printf("%d\n", sum);
    return 0;
}
