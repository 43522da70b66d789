/* reads the next element of another array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64 + 1], b[64];
int main(void)
{
    for (int i = 0; i <= 64; i++) a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        b[i] = a[i + 1] + 1;
    printf("%d\n", b[64/2]);
    return 0;
}
