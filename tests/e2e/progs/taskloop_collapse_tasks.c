/* `taskloop collapse(2)`: `grainsize` counts iterations of the collapsed space and
 * `num_tasks(n)` makes n tasks when there are n iterations or more, as libgomp does; each task
 * counts itself once through its firstprivate flag. e2e: openmp-only (the program without
 * OpenMP runs one loop, no tasks) */
#include <stdio.h>

#define N 5
#define M 7
int a[N][M];
int ntasks;

static void run(int grain, int tasks, int n)
{
    ntasks = 0;
#pragma omp parallel
#pragma omp single
    {
        int first = 1;
        if (grain > 0) {
#pragma omp taskloop collapse(2) grainsize(grain) firstprivate(first)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < M; j++) {
                    if (first) {
                        first = 0;
#pragma omp atomic
                        ntasks++;
                    }
                    a[i][j] += i * 10 + j;
                }
        } else {
#pragma omp taskloop collapse(2) num_tasks(tasks) firstprivate(first)
            for (int i = 0; i < n; i++)
                for (int j = 0; j < M; j++) {
                    if (first) {
                        first = 0;
#pragma omp atomic
                        ntasks++;
                    }
                    a[i][j] += i * 100 + j;
                }
        }
    }
    long s = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            s += (long)a[i][j] * (i + 2 * j + 1);
    printf("grainsize %d num_tasks %d rows %d: %d tasks, checksum %ld\n", grain, tasks, n, ntasks,
           s);
}

int main(void)
{
    run(4, 0, N);
    run(10, 0, N);
    run(7, 0, 3);
    run(100, 0, N);
    run(0, 6, N);
    run(0, 9, 2);
    run(0, 20, 2);
    run(0, 3, 1);
    return 0;
}
