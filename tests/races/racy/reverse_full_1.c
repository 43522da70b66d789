/* reverse over the whole range instead of half.
 * expect: race on r at line 13 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int r[64];
int main(void)
{
    for (int i = 0; i < 64; i++) r[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
        int t = r[i];
        r[i] = r[64 - 1 - i];
        r[64 - 1 - i] = t;
    }
    printf("%d\n", r[0]);
    return 0;
}
