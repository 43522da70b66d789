/* a random value computed from the iteration alone.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double r[200];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
        unsigned seed = 12345u + (unsigned)i;
        seed = seed * 1103515245u + 12345u;
        r[i] = seed % 100;
    }
    printf("%g\n", r[0]);
    return 0;
}
