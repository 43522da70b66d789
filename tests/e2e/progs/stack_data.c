/* stack data: main's local arrays, and a caller's stack array written
 * through a pointer by a parallel loop in a called function (two levels deep) */
#include <stdio.h>

static void fill(int *dst, int n, int mul)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        dst[i] = i * mul;
}

static void scale_rows(double (*m)[16], int rows)
{
#pragma omp parallel for
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < 16; c++)
            m[r][c] = m[r][c] * 2 + r;
}

static long middle(int depth)
{
    int buf[300];
    double m[12][16];
    for (int r = 0; r < 12; r++)
        for (int c = 0; c < 16; c++)
            m[r][c] = c;
    fill(buf, 300, depth + 2);
    scale_rows(m, 12);
    long s = 0;
    for (int i = 0; i < 300; i++)
        s += buf[i];
    for (int r = 0; r < 12; r++)
        s += (long)m[r][15];
    return s;
}

int main(void)
{
    int mine[500];
    short small[7] = {0};
    fill(mine, 500, 3);
#pragma omp parallel for
    for (int i = 0; i < 7; i++)
        small[i] = (short)(mine[i * 70] - i);
    long s = 0;
    for (int i = 0; i < 500; i++)
        s += mine[i];
    printf("s=%ld small[6]=%d middle=%ld,%ld\n", s, small[6], middle(1), middle(5));
    return 0;
}
