/* collapse(3) on a 5 x 3 x 7 nest with steps, and a 3-deep nest inside parallel */
#include <stdio.h>

double g[5][3][7];
int k3[9][5][3];

int main(void)
{
#pragma omp parallel for collapse(3)
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 7; k++)
                g[i][j][k] = i * 1.5 + j * 0.25 + k;
#pragma omp parallel
    {
#pragma omp for collapse(3) schedule(guided)
        for (int i = 8; i >= 0; i--)
            for (int j = 0; j < 10; j += 2)
                for (int k = 0; k < 3; k++)
                    k3[i][j / 2][k] = i * 100 + j * 10 + k + (int)g[i % 5][k][j % 7];
    }
    double s = 0;
    long h = 0;
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 7; k++)
                s += g[i][j][k] * (k + 1);
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 3; k++)
                h = h * 3 + k3[i][j][k];
    printf("s=%.2f h=%ld\n", s, h);
    return 0;
}
