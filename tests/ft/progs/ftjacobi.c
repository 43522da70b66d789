/* ftjacobi.c - a long iterative program for the fault-tolerance tests (tests/ft/run.sh).
 * usage: ./ftjacobi [iterations] [checkpoint-at]   (defaults 600 and 0)
 * Reads one line from stdin: the temperature of the hot edge. Each iteration is one
 * parallel loop (a Jacobi sweep of a small grid, max reduction of the change), so the run
 * has `iterations` parallel regions; a checksum is printed every 50 iterations and at the
 * end. Built with -DWITH_CAPE (capecc only) and `checkpoint-at` = K > 0, after iteration K
 * it calls cape_checkpoint_now() and prints its result to stderr.
 * Built with -DOTHER_PROGRAM it computes the same but is another executable.
 * While a file `ftjacobi.stall.K` exists in the working directory, the run waits after
 * iteration K, a multiple of 50 (the tests of a kill midway: the kill cannot come after the
 * end). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef N /* -DN=256: a grid of whole pages per rank (the demand-driven merge's test) */
#define N 48
#endif

#ifdef WITH_CAPE /* the capecc build: capert's checkpoint API */
int cape_checkpoint_now(void);
long long cape_checkpoint_regions(void);
#endif

static double grid[2][N][N];

static double checksum(double (*u)[N])
{
    double s = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            s += u[i][j] * (1.0 + (i * N + j) % 7);
    return s;
}

int main(int argc, char **argv)
{
    int iterations = argc > 1 ? atoi(argv[1]) : 600;
    int checkpoint_at = argc > 2 ? atoi(argv[2]) : 0;
    double hot = 100.0;
    if (scanf("%lf", &hot) != 1) {
        fprintf(stderr, "ftjacobi: expected the hot-edge temperature on stdin\n");
        return 2;
    }
#ifdef OTHER_PROGRAM
    printf("(other program)\n");
#endif
    for (int j = 0; j < N; j++)
        grid[0][0][j] = grid[1][0][j] = hot;
    for (int i = 1; i < N; i++)
        grid[0][i][0] = grid[1][i][0] = hot / 2;

    int cur = 0;
    double change = 0.0;
    for (int it = 1; it <= iterations; it++) {
        double (*u)[N] = grid[cur], (*unew)[N] = grid[1 - cur];
        change = 0.0;
#pragma omp parallel for reduction(max : change) schedule(static)
        for (int i = 1; i < N - 1; i++) {
            for (int j = 1; j < N - 1; j++) {
                double v = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
                double d = v > u[i][j] ? v - u[i][j] : u[i][j] - v;
                if (d > change)
                    change = d;
                unew[i][j] = v;
            }
        }
        cur = 1 - cur;
        if (it % 50 == 0)
            printf("iteration %d: checksum %.12e change %.6e\n", it, checksum(grid[cur]), change);
#ifdef WITH_CAPE
        if (it == checkpoint_at) {
            int r = cape_checkpoint_now();
            fprintf(stderr, "ftjacobi: cape_checkpoint_now() = %d, regions durable %lld\n", r,
                    cape_checkpoint_regions());
        }
#endif
        fflush(stdout);
        if (it % 50 == 0) {
            char stall[32];
            snprintf(stall, sizeof stall, "ftjacobi.stall.%d", it);
            while (access(stall, F_OK) == 0)
                usleep(10000);
        }
    }
    printf("final: %d iterations, checksum %.12e change %.6e\n", iterations, checksum(grid[cur]),
           change);
    return 0;
}
