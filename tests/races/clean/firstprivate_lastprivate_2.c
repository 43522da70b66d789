/* firstprivate and lastprivate on one variable.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200];
int main(void)
{
    double k = 5;
#pragma omp parallel for firstprivate(k) lastprivate(k)
    for (int i = 0; i < 200; i++) {
        a[i] = k + i;
        if (i == 200 - 1) k = a[i];
    }
    printf("%g\n", k);
    return 0;
}
