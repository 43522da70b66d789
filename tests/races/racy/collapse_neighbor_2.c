/* collapse(2): each element reads its right neighbour.
 * expect: race on g at line 12 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double g[8][25 + 1];
int main(void)
{
#pragma omp parallel for collapse(2)
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 25; j++)
            g[i][j] = g[(i * 25 + j + 1) / 25][(j + 1) % 25] + 1;
    printf("%g\n", g[0][0]);
    return 0;
}
