/* enumeration constants declared inside the function (also in an array's type) and `register`
   locals, used inside parallel regions */
#include <stdio.h>

int main(void)
{
    enum { W = 6, H = W - 2 };
    enum color { RED, GREEN = 5, BLUE };
    double g[H][W];
    register int n = 40;
    register long total = 0;
#pragma omp parallel for collapse(2)
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++)
            g[i][j] = i + 0.5 * j + BLUE;
#pragma omp parallel for reduction(+ : total)
    for (int i = 0; i < n; i++)
        total += i % W == 0 ? GREEN : RED;
    printf("%.1f %.1f %ld\n", g[H - 1][W - 1], g[1][2], total);
    return 0;
}
