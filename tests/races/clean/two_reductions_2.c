/* reduction on both variables.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200];
int main(void)
{
    double s = 0, sq = 0;
    for (int i = 0; i < 200; i++) a[i] = i % 5;
#pragma omp parallel for reduction(+:s, sq)
    for (int i = 0; i < 200; i++) {
        s += a[i];
        sq += a[i] * a[i];
    }
    printf("%g %g\n", s, sq);
    return 0;
}
