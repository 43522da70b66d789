/* reduction on the wrong variable: sq is updated by every thread.
 * expect: race on sq at line 14 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double a[200];
int main(void)
{
    double s = 0, sq = 0;
    for (int i = 0; i < 200; i++) a[i] = i % 5;
#pragma omp parallel for reduction(+:s)
    for (int i = 0; i < 200; i++) {
        s += a[i];
        sq += a[i] * a[i];
    }
    printf("%g %g\n", s, sq);
    return 0;
}
