/* point-to-point synchronisation through shared flags and `flush`, in both directions (the
   NAS LU benchmark's pipelined sweeps): each thread owns a block of columns; for each plane
   it waits for the thread before it (lower sweep) or after it (upper sweep) to finish that
   plane, then computes its block, which reads the neighbour's last column */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define NK 24
#define NX 61
#define MAXT 64

double v[NK][NX];
int down[MAXT], up[MAXT];

int main(void)
{
    for (int k = 0; k < NK; k++)
        for (int i = 0; i < NX; i++)
            v[k][i] = 1.0 / (1 + k + i);

#pragma omp parallel
    {
        int iam = 0, nt = 1;
#ifdef _OPENMP
        iam = omp_get_thread_num();
        nt = omp_get_num_threads();
#endif
        int lo = (NX - 1) * iam / nt, hi = (NX - 1) * (iam + 1) / nt;
        for (int it = 0; it < 3; it++) {
            /* lower sweep: plane k, columns left to right */
            for (int k = 1; k < NK; k++) {
                if (iam > 0) {
                    while (down[iam - 1] == 0) {
#pragma omp flush(down)
                    }
                    down[iam - 1] = 0;
#pragma omp flush(down, v)
                }
#pragma omp for schedule(static) nowait
                for (int i = 1; i < NX; i++)
                    v[k][i] = 0.5 * v[k][i - 1] + 0.25 * v[k - 1][i] + 0.125;
                if (iam < nt - 1) {
                    while (down[iam] == 1) {
#pragma omp flush(down)
                    }
                    down[iam] = 1;
#pragma omp flush(down, v)
                }
            }
#pragma omp barrier
            /* upper sweep: planes and columns in reverse */
            for (int k = NK - 2; k >= 0; k--) {
                if (iam < nt - 1) {
                    while (up[iam + 1] == 0) {
#pragma omp flush(up)
                    }
                    up[iam + 1] = 0;
#pragma omp flush(up, v)
                }
                /* the same blocks of columns, each from right to left */
                for (int i = hi - 1; i >= lo; i--)
                    v[k][i] = 0.5 * v[k][i + 1] + 0.25 * v[k + 1][i] - 0.0625;
                if (iam > 0) {
                    while (up[iam] == 1) {
#pragma omp flush(up)
                    }
                    up[iam] = 1;
#pragma omp flush(up, v)
                }
            }
#pragma omp barrier
        }
    }
    double sum = 0;
    for (int k = 0; k < NK; k++)
        for (int i = 0; i < NX; i++)
            sum += v[k][i] * (1 + (k + i) % 7);
    printf("checksum %.12e\n", sum);
    printf("v[NK-1][NX-1] = %.12e, v[0][0] = %.12e\n", v[NK - 1][NX - 1], v[0][0]);
    return 0;
}
