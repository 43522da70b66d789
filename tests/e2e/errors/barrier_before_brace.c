/* a barrier as the body of an `if` at the end of a block: the C without it does not parse
   (`if (x) }`); the directive is the error (gcc: "may only be used in compound statements") */
#include <stdio.h>

int hits;

int main(void)
{
    int x = 1;
#pragma omp parallel
    {
        hits = 1;
        if (x)
            // expect-error: 15
#pragma omp barrier
    }
    printf("%d\n", hits);
    return 0;
}
