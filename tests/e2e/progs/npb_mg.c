/* An equivalent of the NAS MG benchmark (written for capecc's tests, not NPB's code): V-cycle
   multigrid for the 3-D Poisson equation on a periodic grid (27-point residual and smoother
   weights as in a standard multigrid, full-weighting restriction, trilinear interpolation),
   the periodic borders copied after each operator; the norm of the residual after each
   cycle. Class S (32^3) or W (64^3) (argument). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define LEVELS_MAX 8
#define CYCLES 4

static double *u[LEVELS_MAX], *r[LEVELS_MAX], *v;
static int size[LEVELS_MAX];

#define AT(a, n, i, j, k) a[((long)(i) * ((n) + 2) + (j)) * ((n) + 2) + (k)]

/* periodic borders: the ghost planes are copies of the opposite interior ones */
static void borders(double *a, int n)
{
#pragma omp parallel for
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            AT(a, n, i, j, 0) = AT(a, n, i, j, n);
            AT(a, n, i, j, n + 1) = AT(a, n, i, j, 1);
        }
#pragma omp parallel for
    for (int i = 1; i <= n; i++)
        for (int k = 0; k <= n + 1; k++) {
            AT(a, n, i, 0, k) = AT(a, n, i, n, k);
            AT(a, n, i, n + 1, k) = AT(a, n, i, 1, k);
        }
#pragma omp parallel for
    for (int j = 0; j <= n + 1; j++)
        for (int k = 0; k <= n + 1; k++) {
            AT(a, n, 0, j, k) = AT(a, n, n, j, k);
            AT(a, n, n + 1, j, k) = AT(a, n, 1, j, k);
        }
}

/* out = in - A x, or out += S x (the smoother) with the weights c of centre, faces, edges, corners */
static void stencil(double *out, const double *x, const double *in, int n, const double *c, int smooth)
{
#pragma omp parallel for
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            for (int k = 1; k <= n; k++) {
                double s[4] = {0, 0, 0, 0};
                for (int di = -1; di <= 1; di++)
                    for (int dj = -1; dj <= 1; dj++)
                        for (int dk = -1; dk <= 1; dk++)
                            s[abs(di) + abs(dj) + abs(dk)] += AT(x, n, i + di, j + dj, k + dk);
                double ax = c[0] * s[0] + c[1] * s[1] + c[2] * s[2] + c[3] * s[3];
                if (smooth)
                    AT(out, n, i, j, k) += ax;
                else
                    AT(out, n, i, j, k) = AT(in, n, i, j, k) - ax;
            }
    borders(out, n);
}

static const double A[4] = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
static const double S[4] = {-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0.0};

/* full weighting: coarse (n/2) from fine (n) */
static void restrict_to(double *coarse, const double *fine, int n)
{
    int m = n / 2;
#pragma omp parallel for
    for (int i = 1; i <= m; i++)
        for (int j = 1; j <= m; j++)
            for (int k = 1; k <= m; k++) {
                double s[4] = {0, 0, 0, 0};
                for (int di = -1; di <= 1; di++)
                    for (int dj = -1; dj <= 1; dj++)
                        for (int dk = -1; dk <= 1; dk++)
                            s[abs(di) + abs(dj) + abs(dk)] += AT(fine, n, 2 * i + di, 2 * j + dj, 2 * k + dk);
                AT(coarse, m, i, j, k) = 0.5 * s[0] + 0.25 * s[1] + 0.125 * s[2] + 0.0625 * s[3];
            }
    borders(coarse, m);
}

/* trilinear interpolation of the coarse correction, added to the fine grid */
static void interpolate_add(double *fine, const double *coarse, int n)
{
    int m = n / 2;
#pragma omp parallel for
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            for (int k = 1; k <= n; k++) {
                int ci = (i + 1) / 2, cj = (j + 1) / 2, ck = (k + 1) / 2;
                int oi = i % 2 ? 1 : -1, oj = j % 2 ? 1 : -1, ok = k % 2 ? 1 : -1;
                /* the fine point lies between coarse points ci and ci - oi in each dimension */
                double sum = 0;
                for (int a = 0; a < 2; a++)
                    for (int b = 0; b < 2; b++)
                        for (int c = 0; c < 2; c++) {
                            double w = (a ? 0.25 : 0.75) * (b ? 0.25 : 0.75) * (c ? 0.25 : 0.75);
                            sum += w * AT(coarse, m, ci - a * oi, cj - b * oj, ck - c * ok);
                        }
                AT(fine, n, i, j, k) += sum;
            }
    borders(fine, n);
}

static void zero(double *a, int n)
{
    long total = (long)(n + 2) * (n + 2) * (n + 2);
#pragma omp parallel for
    for (long i = 0; i < total; i++)
        a[i] = 0;
}

static double norm2(const double *a, int n)
{
    double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            for (int k = 1; k <= n; k++)
                sum += AT(a, n, i, j, k) * AT(a, n, i, j, k);
    return sqrt(sum / ((double)n * n * n));
}

int main(int argc, char **argv)
{
    char cls = argc > 1 ? argv[1][0] : 'S';
    int n = cls == 'W' ? 64 : 32, levels = 0;
    const double ref[2] = {3.0684728905e-04, 1.2755223459e-04};
    for (int m = n; m >= 4; m /= 2) {
        size[levels] = m;
        long total = (long)(m + 2) * (m + 2) * (m + 2);
        u[levels] = calloc(total, sizeof(double));
        r[levels] = calloc(total, sizeof(double));
        levels++;
    }
    v = calloc((long)(n + 2) * (n + 2) * (n + 2), sizeof(double));
    /* right-hand side: +1 and -1 at a few scattered points, as in NAS MG */
    unsigned s = 7u;
    for (int p = 0; p < 20; p++) {
        s = s * 1103515245u + 12345u;
        int i = 1 + (s >> 8) % n, j = 1 + (s >> 12) % n, k = 1 + (s >> 16) % n;
        AT(v, n, i, j, k) = p < 10 ? 1.0 : -1.0;
    }
    borders(v, n);
    stencil(r[0], u[0], v, n, A, 0);
    double rn = 0;
    for (int cycle = 1; cycle <= CYCLES; cycle++) {
        /* down: restrict the residual */
        for (int l = 1; l < levels; l++)
            restrict_to(r[l], r[l - 1], size[l - 1]);
        /* coarsest: smooth from zero */
        zero(u[levels - 1], size[levels - 1]);
        stencil(u[levels - 1], r[levels - 1], 0, size[levels - 1], S, 1);
        /* up: interpolate, residual, smooth */
        for (int l = levels - 2; l >= 1; l--) {
            zero(u[l], size[l]);
            interpolate_add(u[l], u[l + 1], size[l]);
            stencil(r[l], u[l], r[l], size[l], A, 0);
            stencil(u[l], r[l], 0, size[l], S, 1);
        }
        interpolate_add(u[0], u[1], n);
        stencil(r[0], u[0], v, n, A, 0);
        stencil(u[0], r[0], 0, n, S, 1);
        stencil(r[0], u[0], v, n, A, 0);
        rn = norm2(r[0], n);
        printf("  iter %d  residual norm %.10e\n", cycle, rn);
    }
    printf(" MG Benchmark equivalent, class %c: %d^3 grid, %d levels\n", cls, n, levels);
    double r0 = ref[cls == 'W'];
    printf(" Verification = %s\n", fabs(rn - r0) <= 1e-8 * fabs(r0) ? "SUCCESSFUL" : "UNSUCCESSFUL");
    return 0;
}
