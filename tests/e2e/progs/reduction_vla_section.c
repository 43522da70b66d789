/* An array-section reduction over a variable-length array (a histogram whose size is known
 * at run time only), and over a 2-D one. */
#include <stdio.h>

int main(int argc, char **argv)
{
    (void)argv;
    int m = 6 + argc, rows = 3 + argc;
    long hist[m];
    double grid[rows][m];
    for (int k = 0; k < m; k++)
        hist[k] = 0;
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < m; k++)
            grid[r][k] = 0;
#pragma omp parallel for reduction(+: hist[:m], grid)
    for (int i = 0; i < 1000; i++) {
        hist[i % m] += i;
        grid[i % rows][i % m] += 0.5 * i;
    }
    double g = 0;
    for (int r = 0; r < rows; r++)
        for (int k = 0; k < m; k++)
            g += grid[r][k] * (r + 1) * (k + 1);
    printf("h0=%ld h%d=%ld g=%.1f\n", hist[0], m - 1, hist[m - 1], g);
    return 0;
}
