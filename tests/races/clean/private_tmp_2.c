/* private temporary.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200], b[200];
int main(void)
{
    double tmp;
    for (int i = 0; i < 200; i++) a[i] = i;
#pragma omp parallel for private(tmp)
    for (int i = 0; i < 200; i++) {
        tmp = a[i] * 2;
        b[i] = tmp + 1;
    }
    printf("%g\n", b[3]);
    return 0;
}
