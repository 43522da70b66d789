/* three nested loops parallel over the middle one: c[i][k] written by every j.
 * expect: race on cm at line 15 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int cm[4][4], am[4][8], bm[8][4];
int main(void)
{
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 8; j++) am[i][j] = i + j, bm[j][i] = i - j;
    for (int i = 0; i < 4; i++) {
#pragma omp parallel for
        for (int j = 0; j < 8; j++)
            for (int k = 0; k < 4; k++)
                cm[i][k] += am[i][j] * bm[j][k];
    }
    printf("%d\n", cm[1][1]);
    return 0;
}
