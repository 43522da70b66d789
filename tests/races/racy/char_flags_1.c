/* byte flags: four iterations share one char.
 * expect: race on flags at line 11 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
char flags[64 / 4 + 1];
int main(void)
{
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 64; i++)
        flags[i / 4] = (char)(i & 1);
    printf("%d\n", flags[1] >= 0);
    return 0;
}
