/* a random value computed from the iteration alone.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int r[64];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
        unsigned seed = 12345u + (unsigned)i;
        seed = seed * 1103515245u + 12345u;
        r[i] = seed % 100;
    }
    printf("%d\n", r[0]);
    return 0;
}
