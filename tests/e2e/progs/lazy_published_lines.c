/* The demand-driven merge (CAPE_MERGE=lazy, see the .env file) publishes a page by the lines
 * that changed when the buffer it rewrites holds the home's version before the current one.
 * Each sweep changes a few different lines of every page of a rank's block, many sweeps in a
 * row, so pages are published again and again from lines; in between, sequential code writes
 * into pages homed elsewhere (the home's twin is brought up to date at the next region: its
 * changed lines are no longer known), the rows change hands (interleaved chunks), and two
 * ranks write one page (merged eagerly, no home). Other ranks read whole pages (halo rows
 * and a checksum of everything), so a stale line anywhere shows. */
#include <stdio.h>

#define ROWS 48
#define COLS 512 /* one row is one 4 KiB page */

static double grid[ROWS][COLS] __attribute__((aligned(4096)));

static unsigned long fold(unsigned long h, const void *p, unsigned long n)
{
    const unsigned char *b = p;
    for (unsigned long i = 0; i < n; i++)
        h = h * 1099511628211ul ^ b[i];
    return h;
}

/* each row i changes the elements j with (j + 7 i + s) % stride == 0: a few lines of its
 * page, other lines at every sweep; it reads the row above (another rank's, at a block edge) */
static void sweep(int s, int stride, int interleaved)
{
    if (interleaved) {
#pragma omp parallel for schedule(static, 1)
        for (int i = 1; i < ROWS; i++)
            for (int j = 0; j < COLS; j++)
                if ((j + 7 * i + s) % stride == 0)
                    grid[i][j] = 0.5 * grid[i][j] + 0.25 * grid[i - 1][j] + s;
    } else {
#pragma omp parallel for schedule(static)
        for (int i = 1; i < ROWS; i++)
            for (int j = 0; j < COLS; j++)
                if ((j + 7 * i + s) % stride == 0)
                    grid[i][j] = 0.5 * grid[i][j] + 0.25 * grid[i - 1][j] + s;
    }
}

int main(void)
{
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            grid[i][j] = i + j / 64.0;

    for (int s = 0; s < 60; s++) {
        sweep(s, s < 30 ? 61 : 29, s >= 40 && s < 44);
        if (s % 9 == 4) {
            /* every rank, sequentially: pages homed elsewhere change outside a region */
            for (int i = 3; i < ROWS; i += 11)
                grid[i][(s * 13) % COLS] += 1.0;
        }
        if (s == 20 || s == 50) {
            /* two ranks write each page: its halves by neighbouring iterations */
#pragma omp parallel for schedule(static, 1)
            for (int k = 0; k < 2 * ROWS; k++)
                grid[k / 2][(k % 2) * (COLS / 2) + s] -= 0.125;
        }
        if (s % 10 == 9)
            printf("sweep %d: checksum %016lx\n", s, fold(14695981039346656037ul, grid, sizeof grid));
    }
    double sum = 0.0;
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            sum += grid[i][j];
    printf("sum %.6f, grid[47][511] %.6f\n", sum, grid[ROWS - 1][COLS - 1]);
    return 0;
}
