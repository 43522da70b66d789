/* `default(none)` covers the variables of the worksharing part's clauses of a combined
   construct: the chunk `ch` is not listed, which gcc refuses at the pragma too */
// expect-error: 11
#include <stdio.h>

int a[16];

int main(void)
{
    int ch = 2;
#pragma omp parallel for schedule(static, ch) default(none) shared(a)
    for (int i = 0; i < 16; i++)
        a[i] = i;
    printf("%d\n", a[15]);
    return 0;
}
