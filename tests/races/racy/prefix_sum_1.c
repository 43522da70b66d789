/* prefix sum in parallel.
 * expect: race on p at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int p[64];
int main(void)
{
    for (int i = 0; i < 64; i++) p[i] = 1;
#pragma omp parallel for
    for (int i = 1; i < 64; i++)
        p[i] += p[i - 1];
    printf("%d\n", p[64 - 1]);
    return 0;
}
