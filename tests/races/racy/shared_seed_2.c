/* a shared random seed updated per iteration (should be firstprivate or per-iteration).
 * expect: race on seed at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
unsigned seed = 12345;
double r[200];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
        seed = seed * 1103515245u + 12345u;
        r[i] = seed % 100;
    }
    printf("%g\n", r[0] >= 0 ? r[0] * 0 : 1);
    return 0;
}
