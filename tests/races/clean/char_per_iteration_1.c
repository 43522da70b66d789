/* byte per iteration.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
char flags[64];
int main(void)
{
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 64; i++)
        flags[i] = (char)(i & 1);
    printf("%d\n", flags[1]);
    return 0;
}
