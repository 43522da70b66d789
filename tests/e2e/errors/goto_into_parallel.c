/* a `goto` into a parallel region (gcc: "invalid entry to OpenMP structured block"): the
   region is entered through its start only */
#include <stdio.h>

int hits;

int main(void)
{
    if (hits == 0)
        // expect-error: 11
        goto inside;
#pragma omp parallel
    {
inside:
        hits = 1;
    }
    printf("%d\n", hits);
    return 0;
}
