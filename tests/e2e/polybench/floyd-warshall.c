/* floyd-warshall (PolyBench/C 4.2, SMALL): all-pairs shortest paths on integers */
#include <stdio.h>

#define N 180

static int path[N][N];

int main(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            path[i][j] = i * j % 7 + 1;
            if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
                path[i][j] = 999;
        }
    for (int i = 0; i < N; i++)
        path[i][i] = 0;
    for (int k = 0; k < N; k++) {
        /* row k does not change in step k (path[k][k] = 0), so the rows are independent */
#pragma omp parallel for
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (path[i][k] + path[k][j] < path[i][j])
                    path[i][j] = path[i][k] + path[k][j];
    }
    unsigned long h = 0, total = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            h = h * 1000003u + (unsigned)path[i][j];
            total += (unsigned)path[i][j];
        }
    printf("path: total=%lu hash=%lu\n", total, h);
    return 0;
}
