/* firstprivate and lastprivate on one variable.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64];
int main(void)
{
    int k = 5;
#pragma omp parallel for firstprivate(k) lastprivate(k)
    for (int i = 0; i < 64; i++) {
        a[i] = k + i;
        if (i == 64 - 1) k = a[i];
    }
    printf("%d\n", k);
    return 0;
}
