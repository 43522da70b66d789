/* a shared random seed updated per iteration (should be firstprivate or per-iteration).
 * expect: race on seed at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
unsigned seed = 12345;
int r[64];
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
        seed = seed * 1103515245u + 12345u;
        r[i] = seed % 100;
    }
    printf("%d\n", r[0] >= 0 ? r[0] * 0 : 1);
    return 0;
}
