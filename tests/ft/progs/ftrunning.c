/* ftrunning.c - sequential code that keeps values computed from the shared arrays outside
 * shared memory across parallel regions (tests/ft/run.sh, exact snapshots).
 * usage: ./ftrunning [iterations]   (default 2000)
 * Each iteration is one parallel loop (a Jacobi sweep of a small grid). After every sweep the
 * sequential code adds a grid point to a running sum and counts the sweeps whose corner
 * point exceeded a threshold: both are locals of main that no region writes (a stack slot or
 * a callee-saved register). A progress line is printed every 50 iterations (without them),
 * the sum and the count at the end. A restart that re-ran the sequential code against an
 * earlier state of the grid, without restoring them, prints other values. */
#include <stdio.h>

#define N 40

static double grid[2][N][N];

int main(int argc, char **argv)
{
    int iterations = 2000;
    if (argc > 1 && sscanf(argv[1], "%d", &iterations) != 1)
        return 2;
    for (int j = 0; j < N; j++)
        grid[0][0][j] = grid[1][0][j] = 100.0;
    int cur = 0;
    double running = 0.0;
    long warm = 0;
    for (int it = 1; it <= iterations; it++) {
        double (*u)[N] = grid[cur], (*unew)[N] = grid[1 - cur];
#pragma omp parallel for schedule(static)
        for (int i = 1; i < N - 1; i++)
            for (int j = 1; j < N - 1; j++)
                unew[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
        cur = 1 - cur;
        running += grid[cur][N / 2][N / 2];
        warm += grid[cur][3][3] > 20.0 + it % 7;
        if (it % 50 == 0) {
            printf("iteration %d\n", it);
            fflush(stdout);
        }
    }
    printf("running sum %.12e, warm sweeps %ld\n", running, warm);
    return 0;
}
