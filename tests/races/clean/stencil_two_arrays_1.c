/* 2-D stencil into a second array.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int m[8][8], n2[8][8];
int main(void)
{
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) m[i][j] = i * j;
#pragma omp parallel for
    for (int i = 1; i < 8 - 1; i++)
        for (int j = 0; j < 8; j++)
            n2[i][j] = (m[i - 1][j] + m[i + 1][j]) / 2;
    printf("%d\n", n2[2][3]);
    return 0;
}
