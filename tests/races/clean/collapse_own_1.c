/* collapse(2) writing each element once.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int g[8][8];
int main(void)
{
#pragma omp parallel for collapse(2)
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            g[i][j] = i * 100 + j;
    printf("%d\n", g[3][4]);
    return 0;
}
