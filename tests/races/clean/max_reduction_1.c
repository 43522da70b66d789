/* maximum with reduction(max).
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64];
int main(void)
{
    int mx = 0;
    for (int i = 0; i < 64; i++) a[i] = (i * 37) % 101;
#pragma omp parallel for reduction(max:mx)
    for (int i = 0; i < 64; i++)
        if (a[i] > mx) mx = a[i];
    printf("%d\n", mx);
    return 0;
}
