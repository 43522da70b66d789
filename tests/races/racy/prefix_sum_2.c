/* prefix sum in parallel.
 * expect: race on p at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double p[200];
int main(void)
{
    for (int i = 0; i < 200; i++) p[i] = 1;
#pragma omp parallel for
    for (int i = 1; i < 200; i++)
        p[i] += p[i - 1];
    printf("%g\n", p[200 - 1]);
    return 0;
}
