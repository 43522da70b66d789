/* nowait on a loop whose results the next loop reads.
 * expect: race on u at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int u[64], v[64];
int main(void)
{
#pragma omp parallel
    {
#pragma omp for nowait
        for (int i = 0; i < 64; i++)
            u[i] = i * 2;
#pragma omp for
        for (int i = 0; i < 64; i++)
            v[i] = u[64 - 1 - i];
    }
    printf("%d\n", v[0]);
    return 0;
}
