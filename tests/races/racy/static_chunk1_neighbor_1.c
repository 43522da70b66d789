/* schedule(static, 1): neighbours on different threads.
 * expect: race on w at line 11 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int w[64 + 1];
int main(void)
{
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 64; i++)
        w[i] = w[i + 1] + i;
    printf("%d\n", w[0]);
    return 0;
}
