/* collapse(2) on rectangular nests with odd sizes (7 x 13, 1 x 9, 31 x 3), static and
   chunked schedules, lastprivate of both loop variables */
#include <stdio.h>

int a[7][13], b[1][9], c[31][3];

int main(void)
{
    int li = -1, lj = -1;
#pragma omp parallel for collapse(2) lastprivate(li, lj)
    for (int i = 0; i < 7; i++)
        for (int j = 0; j < 13; j++) {
            a[i][j] = i * 100 + j;
            li = i;
            lj = j;
        }
#pragma omp parallel for collapse(2) schedule(static, 2)
    for (int i = 0; i < 1; i++)
        for (int j = 8; j >= 0; j--)
            b[i][j] = j * j;
    long s = 0;
#pragma omp parallel
    {
#pragma omp for collapse(2) reduction(+ : s) schedule(dynamic, 3)
        for (int i = 0; i < 31; i++)
            for (int j = 0; j < 3; j++) {
                c[i][j] = a[i % 7][(i + j) % 13] + b[0][j];
                s += c[i][j];
            }
    }
    long h = 0;
    for (int i = 0; i < 31; i++)
        for (int j = 0; j < 3; j++)
            h = h * 7 + c[i][j];
    printf("li=%d lj=%d s=%ld h=%ld\n", li, lj, s, h);
    return 0;
}
