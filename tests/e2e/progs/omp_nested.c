/* nested parallel: the inner region runs (as with nesting disabled, a team of one, or a
   real team under gcc) and the result does not depend on it */
#include <stdio.h>

#define N 24
#define M 50
int grid[N][M];

static void fill_row(int r)
{
#pragma omp parallel for
    for (int j = 0; j < M; j++)
        grid[r][j] = r * M + j;
}

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        fill_row(i);
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i += 2) {
#pragma omp parallel for
            for (int j = 0; j < M; j++)
                grid[i][j] += j % 5;
        }
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            s += grid[i][j] % 97;
    printf("s=%ld grid[%d][%d]=%d\n", s, N - 1, M - 1, grid[N - 1][M - 1]);
    return 0;
}
