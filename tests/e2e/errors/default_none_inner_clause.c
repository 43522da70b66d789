/* `default(none)` covers the clauses of the constructs inside the region: the grainsize `g` of
   the taskloop is the region's variable, not listed (gcc refuses it too) */
// expect-error: 13
#include <stdio.h>

int a[16];

int main(void)
{
    int g = 4;
#pragma omp parallel default(none) shared(a)
#pragma omp single
#pragma omp taskloop grainsize(g)
    for (int i = 0; i < 16; i++)
        a[i] = i;
    printf("%d\n", a[15]);
    return 0;
}
