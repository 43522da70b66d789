/* Eager merges and reads of pages the demand-driven merge left invalid (run with
 * CAPE_MERGE=lazy, see lazy_eager_switch.env). One stencil region runs most instances with a
 * team of every rank (lazy: each rank homes its block of rows, the others hold those pages
 * invalid), and others with `num_threads(2)` (from P = 3 a smaller team, merged eagerly:
 * ranks 0 and 1 inject each other's rows into pages a third rank homes, the ranks outside
 * the team inject rank 0's broadcast; at P = 1 two threads on the rank), with twice as many
 * threads as ranks (several threads per rank: every invalid page is fetched before the
 * region, which merges eagerly) or with `if(0)` (every rank runs the loop alone, a
 * sequential reader of pages homed elsewhere). The runtime fetches such pages in batches
 * (before it injects, before a region of several threads per rank, for an I/O buffer, ahead
 * of a sequential reader's faults). A second region writes a row that a third one reads
 * and rewrites under a reduction. Sequential code writes the grid with fwrite (an I/O
 * buffer of many invalid pages), then reads all of it. Every value goes into the output. */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_max_threads(void) { return 1; }
#endif

#define ROWS 80
#define COLS 1000 /* rows straddle pages: a page between two blocks has two writers */

static double grid[2][ROWS][COLS];
static struct {
    double row[1000];
    long sum;
} tail;

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
            grid[0][i][j] = grid[1][i][j] = (i == 0 || j == 0) ? 100.0 : (i * 7 + j) % 13;

    int cur = 0;
    int everyone = omp_get_max_threads();
    for (int sweep = 0; sweep < 27; sweep++) {
        int alone = sweep % 6 == 5;
        int team = sweep % 6 == 2 ? 2 : sweep % 6 == 4 ? 2 * everyone : everyone;
#pragma omp parallel for schedule(static) if (!alone) num_threads(team)
        for (int i = 1; i < ROWS - 1; i++)
            for (int j = 1; j < COLS - 1; j++)
                grid[1 - cur][i][j] = 0.25 * (grid[cur][i - 1][j] + grid[cur][i + 1][j] +
                                              grid[cur][i][j - 1] + grid[cur][i][j + 1]) +
                                      (sweep % 3) * 0.125;
        cur = 1 - cur;

        if (sweep % 4 == 1) {
            /* the row's pages homed by their writers */
#pragma omp parallel for schedule(static)
            for (int j = 0; j < 1000; j++)
                tail.row[j] = grid[cur][sweep % ROWS][j] + j;
        }
        if (sweep % 4 == 3) {
            /* read and written again, under a reduction */
            long sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
            for (int j = 0; j < 1000; j++) {
                tail.row[j] = tail.row[j] * 0.5 + sweep;
                sum += (long)(tail.row[j] * 8.0);
            }
            tail.sum += sum;
            printf("sweep %d: sum %ld\n", sweep, tail.sum);
        }
        if (sweep % 8 == 7) {
            /* sequential code reads every row, homed on every rank */
            double all = 0.0;
            for (int i = 0; i < ROWS; i++)
                for (int j = 0; j < COLS; j++)
                    all += grid[cur][i][j];
            printf("sweep %d: grid %.6f\n", sweep, all);
        }
    }

    /* a buffer of pages homed on other ranks given to the kernel */
    FILE *f = fopen("/dev/null", "wb");
    size_t put = f ? fwrite(grid, sizeof grid, 1, f) : 0;
    if (f)
        fclose(f);
    unsigned long h = fold(14695981039346656037ul, grid, sizeof grid);
    h = fold(h, &tail, sizeof tail);
    printf("fwrite %zu checksum %lu\n", put, h);
    return 0;
}
