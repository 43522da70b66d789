/* matrix product parallel over rows.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int cm[4][4], am[4][8], bm[8][4];
int main(void)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) am[i][j] = i + j, bm[j][i] = i - j;
#pragma omp parallel for
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++)
            for (int j = 0; j < 8; j++)
                cm[i][k] += am[i][j] * bm[j][k];
    printf("%d\n", cm[1][1]);
    return 0;
}
