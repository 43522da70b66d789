/* lastprivate.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200];
int main(void)
{
    double last = 0;
#pragma omp parallel for lastprivate(last)
    for (int i = 0; i < 200; i++) {
        a[i] = i * 3;
        last = a[i];
    }
    printf("%g\n", last);
    return 0;
}
