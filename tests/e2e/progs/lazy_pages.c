/* The demand-driven merge (run with CAPE_MERGE=lazy, see lazy_pages.env): pages written by
 * one rank stay with it and are fetched where they are read. Covers a stencil over blocks
 * of rows (neighbours read one row of each other), a page's writer changing from region to
 * region (reversed loop), pages with several writers (interleaved chunks), atomic updates
 * into a page another rank writes, a reduction, single/copyprivate, a heap block filled in
 * a single block, sequential code reading and writing pages homed elsewhere, and a barrier
 * between epochs, and the kernel reading and writing pages homed elsewhere (fwrite, fread).
 * Every value is printed or folded into a checksum, and the file written is compared. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>

#define ROWS 64
#define COLS 1024 /* two rows per 8 KiB: a block of rows is whole pages */
#define SMALL 3000

static double grid[2][ROWS][COLS];
static int owner_mix[2][SMALL];
static long counters[512];
static int fill[4096];

static unsigned long fold(unsigned long h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = h * 1099511628211ul ^ b[i];
    return h;
}

int main(void)
{
    for (int i = 0; i < ROWS; i++)
        for (int j = 0; j < COLS; j++)
            grid[0][i][j] = grid[1][i][j] = (i == 0 || j == 0) ? 100.0 : 0.0;

    /* stencil sweeps: each rank writes its block of rows, reads one row of each neighbour */
    int cur = 0;
    for (int sweep = 0; sweep < 12; sweep++) {
#pragma omp parallel for schedule(static)
        for (int i = 1; i < ROWS - 1; i++)
            for (int j = 1; j < COLS - 1; j++)
                grid[1 - cur][i][j] = 0.25 * (grid[cur][i - 1][j] + grid[cur][i + 1][j] +
                                              grid[cur][i][j - 1] + grid[cur][i][j + 1]);
        cur = 1 - cur;
        if (sweep % 4 == 3) /* sequential code reads rows homed on every rank */
        {
            double rows = 0.0;
            for (int i = 0; i < ROWS; i++)
                rows += grid[cur][i][1] + grid[cur][i][i + 1] + grid[cur][1][i];
            printf("sweep %d: %.10f\n", sweep, rows);
        }
    }

    /* a page's writer changes: forward, then reversed, then forward again with a barrier */
    for (int round = 0; round < 3; round++) {
#pragma omp parallel
        {
#pragma omp for schedule(static)
            for (int i = 0; i < ROWS; i++) {
                int r = round == 1 ? ROWS - 1 - i : i;
                for (int j = 0; j < COLS; j++)
                    grid[cur][r][j] += r * 0.5 + round;
            }
            /* after the barrier every rank reads rows written by others in the first epoch */
#pragma omp for schedule(static)
            for (int i = 0; i < ROWS; i++) {
                int r = ROWS - 1 - i;
                grid[1 - cur][i][0] = grid[cur][r][COLS / 3] + grid[cur][r][COLS - 1];
            }
        }
    }

    /* several writers per page: interleaved chunks of a small array */
    for (int round = 0; round < 4; round++) {
#pragma omp parallel for schedule(static, 7)
        for (int i = 0; i < SMALL; i++)
            owner_mix[(round + 1) % 2][i] = owner_mix[round % 2][(i + 1) % SMALL] / 2 + i * (round + 1);
    }

    /* atomic updates into a page whose other part one rank writes plainly */
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 4096; i++) {
        fill[i] = i * 3;
#pragma omp atomic
        counters[i % 16] += i;
        if (i < 256)
            counters[256 + i] = i * 7; /* only the first rank writes these */
    }

    /* a reduction over every page, single + copyprivate, a heap block made in single */
    double total = 0.0;
    int seed = 0;
    double *block = NULL;
#pragma omp parallel reduction(+ : total)
    {
        int local_seed;
#pragma omp single copyprivate(local_seed)
        local_seed = 1234;
#pragma omp master
        seed = local_seed;
#pragma omp single
        {
            block = malloc(3 * 4096 * sizeof *block);
            for (int k = 0; k < 3 * 4096; k++)
                block[k] = k * 0.25 + local_seed;
        }
#pragma omp for schedule(static)
        for (int i = 0; i < ROWS; i++)
            for (int j = 0; j < COLS; j++)
                total += grid[cur][i][j] * (local_seed % 7);
    }

    /* sequential writes into pages homed elsewhere, then a region reading them */
    for (int i = 0; i < ROWS; i += 5)
        grid[cur][i][i] = -1.0 * i;
    double diag = 0.0;
#pragma omp parallel for reduction(+ : diag)
    for (int i = 0; i < ROWS; i++)
        diag += grid[cur][i][i] + block[i * 100];

    /* the kernel reads rows homed on other ranks, then writes into them. Every rank runs
     * this sequential code on the same file: opened without truncation, so that a rank
     * opening it late cannot empty it under another one's fread (they write the same bytes) */
    int fd = open("lazy_pages.bin", O_RDWR | O_CREAT, 0644);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "r+b");
    if (!f)
        return 1;
    size_t put = fwrite(grid[cur], sizeof grid[cur], 1, f);
    rewind(f);
    size_t got = fread(grid[1 - cur], sizeof grid[cur], 1, f);
    fclose(f);
    printf("fwrite %zu fread %zu\n", put, got);

    unsigned long h = fold(14695981039346656037ul, grid, sizeof grid);
    h = fold(h, owner_mix, sizeof owner_mix);
    h = fold(h, counters, sizeof counters);
    h = fold(h, fill, sizeof fill);
    h = fold(h, block, 3 * 4096 * sizeof *block);
    printf("total %.6f diag %.6f seed %d checksum %lu\n", total, diag, seed, h);
    free(block);
    return 0;
}
