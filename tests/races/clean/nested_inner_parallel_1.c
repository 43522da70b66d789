/* nested loops: the inner parallel loop writes a second array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int c[64 + 1], d[64];
int main(void)
{
    for (int i = 0; i <= 64; i++) c[i] = i;
    for (int t = 0; t < 3; t++) {
#pragma omp parallel for
        for (int j = 0; j < 64; j++)
            d[j] = c[j] + c[j + 1];
        for (int j = 0; j < 64; j++) c[j] = d[j] / 2;
    }
    printf("%d\n", c[0]);
    return 0;
}
