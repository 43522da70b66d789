/* reduction on both variables.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int a[64];
int main(void)
{
    int s = 0, sq = 0;
    for (int i = 0; i < 64; i++) a[i] = i % 5;
#pragma omp parallel for reduction(+:s, sq)
    for (int i = 0; i < 64; i++) {
        s += a[i];
        sq += a[i] * a[i];
    }
    printf("%d %d\n", s, sq);
    return 0;
}
