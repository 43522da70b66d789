/* two iterations write the same element (i / 2).
 * expect: race on half at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int src[64], half[64 / 2];
int main(void)
{
    for (int i = 0; i < 64; i++) src[i] = i;
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 64; i++)
        half[i / 2] = src[i];
    printf("%d\n", half[1]);
    return 0;
}
