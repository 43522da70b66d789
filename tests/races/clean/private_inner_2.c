/* the inner loop variable is private.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double m[25][8];
int main(void)
{
    int i, j;
#pragma omp parallel for private(j)
    for (i = 0; i < 25; i++)
        for (j = 0; j < 8; j++)
            m[i][j] = i + j;
    printf("%g\n", m[1][2]);
    return 0;
}
