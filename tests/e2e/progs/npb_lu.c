/* An equivalent of the NAS LU benchmark (written for capecc's tests, not NPB's code):
   symmetric successive over-relaxation for a 3-D diffusion problem. Each iteration forms the
   residual (`omp for`), then a lower-triangular sweep over the planes k = 1 .. and an upper
   one back, pipelined across the threads as in NAS LU: each thread owns a block of rows j
   and, for each plane, waits through a shared flag and `flush` for its neighbour (the one
   before it going down, the one after it coming back) to finish that plane. Then the update
   and the residual norm (`reduction`). Class S (12^3) or W (33^3) (argument). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAXT 64
#define ITER 20

int nx, ny, nz;
double *u, *f, *r;
int down_flag[MAXT], up_flag[MAXT];

#define AT(a, k, j, i) a[((long)(k) * ny + (j)) * nx + (i)]

int main(int argc, char **argv)
{
    char cls = argc > 1 ? argv[1][0] : 'S';
    nx = ny = nz = cls == 'W' ? 33 : 12;
    const double ref[2] = {5.5064268411e-06, 3.8943187256e-05};
    long total = (long)nx * ny * nz;
    u = calloc(total, sizeof *u);
    f = calloc(total, sizeof *f);
    r = calloc(total, sizeof *r);
    for (int k = 0; k < nz; k++)
        for (int j = 0; j < ny; j++)
            for (int i = 0; i < nx; i++)
                AT(f, k, j, i) = sin(0.3 * i + 0.2 * j) * cos(0.1 * k) + 0.01 * ((i * j + k) % 7);
    const double omega = 1.2, diag = 6.5;
    double norm = 0;
    for (int it = 1; it <= ITER; it++) {
        norm = 0;
#pragma omp parallel
        {
            int iam = 0, nt = 1;
#ifdef _OPENMP
            iam = omp_get_thread_num();
            nt = omp_get_num_threads();
#endif
            int lo = 1 + (ny - 2) * iam / nt, hi = 1 + (ny - 2) * (iam + 1) / nt;
#pragma omp for
            for (int k = 1; k < nz - 1; k++)
                for (int j = 1; j < ny - 1; j++)
                    for (int i = 1; i < nx - 1; i++)
                        AT(r, k, j, i) = AT(f, k, j, i) - diag * AT(u, k, j, i) +
                                         AT(u, k - 1, j, i) + AT(u, k + 1, j, i) + AT(u, k, j - 1, i) +
                                         AT(u, k, j + 1, i) + AT(u, k, j, i - 1) + AT(u, k, j, i + 1);
            /* lower sweep: plane after plane, rows and columns upwards */
            for (int k = 1; k < nz - 1; k++) {
                if (iam > 0) {
                    while (down_flag[iam - 1] == 0) {
#pragma omp flush(down_flag)
                    }
                    down_flag[iam - 1] = 0;
#pragma omp flush(down_flag, r)
                }
                for (int j = lo; j < hi; j++)
                    for (int i = 1; i < nx - 1; i++)
                        AT(r, k, j, i) = (AT(r, k, j, i) + omega * (AT(r, k - 1, j, i) + AT(r, k, j - 1, i) +
                                                                     AT(r, k, j, i - 1))) / diag;
                if (iam < nt - 1) {
                    while (down_flag[iam] == 1) {
#pragma omp flush(down_flag)
                    }
                    down_flag[iam] = 1;
#pragma omp flush(down_flag, r)
                }
            }
#pragma omp barrier
            /* upper sweep: back from the last plane, rows and columns downwards */
            for (int k = nz - 2; k >= 1; k--) {
                if (iam < nt - 1) {
                    while (up_flag[iam + 1] == 0) {
#pragma omp flush(up_flag)
                    }
                    up_flag[iam + 1] = 0;
#pragma omp flush(up_flag, r)
                }
                for (int j = hi - 1; j >= lo; j--)
                    for (int i = nx - 2; i >= 1; i--)
                        AT(r, k, j, i) += omega * (AT(r, k + 1, j, i) + AT(r, k, j + 1, i) + AT(r, k, j, i + 1)) / diag;
                if (iam > 0) {
                    while (up_flag[iam] == 1) {
#pragma omp flush(up_flag)
                    }
                    up_flag[iam] = 1;
#pragma omp flush(up_flag, r)
                }
            }
#pragma omp barrier
#pragma omp for reduction(+ : norm)
            for (int k = 1; k < nz - 1; k++)
                for (int j = 1; j < ny - 1; j++)
                    for (int i = 1; i < nx - 1; i++) {
                        AT(u, k, j, i) += 0.8 * AT(r, k, j, i);
                        norm += AT(r, k, j, i) * AT(r, k, j, i);
                    }
        }
        norm = sqrt(norm / total);
        if (it % 5 == 0)
            printf("  iter %3d  rsd norm %.10e\n", it, norm);
    }
    double usum = 0;
    for (long p = 0; p < total; p++)
        usum += u[p];
    printf(" LU Benchmark equivalent, class %c: %d^3 grid\n solution sum %.10e\n", cls, nx, usum);
    double r0 = ref[cls == 'W'];
    printf(" Verification = %s\n", fabs(norm - r0) <= 1e-8 * fabs(r0) ? "SUCCESSFUL" : "UNSUCCESSFUL");
    return 0;
}
