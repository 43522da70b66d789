/* a pointer to a second array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64], b[64];
int main(void)
{
    int *p = b;
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        p[i] = a[i] + 1;
    printf("%d\n", b[64 - 1]);
    return 0;
}
