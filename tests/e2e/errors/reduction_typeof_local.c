/* a reduction variable declared with `__typeof__` of a local: its combine function, at file
   scope, cannot spell that type, so the declaration is refused at the local it names */
#include <stdio.h>

int main(void)
{
    int n = 10;
    // expect-error: 9
    __typeof__(n) tot = 0;
#pragma omp parallel for reduction(+: tot)
    for (int i = 0; i < n; i++)
        tot += i;
    printf("%d\n", tot);
    return 0;
}
