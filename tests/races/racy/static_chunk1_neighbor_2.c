/* schedule(static, 1): neighbours on different threads.
 * expect: race on w at line 11 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double w[200 + 1];
int main(void)
{
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 200; i++)
        w[i] = w[i + 1] + i;
    printf("%g\n", w[0]);
    return 0;
}
