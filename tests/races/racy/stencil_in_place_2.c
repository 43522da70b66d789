/* 2-D stencil in place over rows.
 * expect: race on m at line 14 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double m[25][8];
int main(void)
{
    for (int i = 0; i < 25; i++)
        for (int j = 0; j < 8; j++) m[i][j] = i * j;
#pragma omp parallel for
    for (int i = 1; i < 25 - 1; i++)
        for (int j = 0; j < 8; j++)
            m[i][j] = (m[i - 1][j] + m[i + 1][j]) / 2;
    printf("%g\n", m[2][3]);
    return 0;
}
