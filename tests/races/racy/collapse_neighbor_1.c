/* collapse(2): each element reads its right neighbour.
 * expect: race on g at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
int g[8][8 + 1];
int main(void)
{
#pragma omp parallel for collapse(2)
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            g[i][j] = g[(i * 8 + j + 1) / 8][(j + 1) % 8] + 1;
    printf("%d\n", g[0][0]);
    return 0;
}
