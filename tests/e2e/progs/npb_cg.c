/* An equivalent of the NAS CG benchmark (written for capecc's tests, not NPB's code): the
   smallest eigenvalue of a sparse symmetric positive definite matrix estimated by inverse
   power iterations (zeta = 1 / x.z with |x| = 1), each solving A z = x with 25 conjugate-gradient steps: sparse mat-vec
   and dot products, many parallel regions per iteration. Class S or W (argument). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NZ_ROW 9
#define CGIT 25

int n;
int *col;
double *val, *x, *z, *p, *q, *r;

static void matvec(const double *in, double *out)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++) {
        double sum = 0;
        for (int k = 0; k < NZ_ROW; k++)
            sum += val[i * NZ_ROW + k] * in[col[i * NZ_ROW + k]];
        out[i] = sum;
    }
}

static double dot(const double *a, const double *b)
{
    double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < n; i++)
        sum += a[i] * b[i];
    return sum;
}

int main(int argc, char **argv)
{
    char cls = argc > 1 ? argv[1][0] : 'S';
    n = cls == 'W' ? 7000 : 1400;
    int niter = cls == 'W' ? 15 : 15;
    const double ref[2] = {0.0698738642, 0.0698855636};
    col = malloc(sizeof *col * n * NZ_ROW);
    val = malloc(sizeof *val * n * NZ_ROW);
    x = malloc(sizeof *x * n);
    z = malloc(sizeof *z * n);
    p = malloc(sizeof *p * n);
    q = malloc(sizeof *q * n);
    r = malloc(sizeof *r * n);
    /* a symmetric pattern: i is coupled with i +- d for four strides d */
    const int stride[4] = {1, 7, 61, 379};
    for (int i = 0; i < n; i++) {
        double diag = 0.05 + 0.02 * (i % 3);
        for (int k = 0; k < 4; k++) {
            int up = (i + stride[k]) % n, down = (i - stride[k] + n) % n;
            double w = 1.0 / (2 + k + (i + up) % 5), w2 = 1.0 / (2 + k + (down + i) % 5);
            col[i * NZ_ROW + 2 * k] = up;
            val[i * NZ_ROW + 2 * k] = -w;
            col[i * NZ_ROW + 2 * k + 1] = down;
            val[i * NZ_ROW + 2 * k + 1] = -w2;
            diag += w + w2;
        }
        col[i * NZ_ROW + 8] = i;
        val[i * NZ_ROW + 8] = diag;
    }
    for (int i = 0; i < n; i++)
        x[i] = 1.0 / sqrt((double)n) * (1 + (i % 7) * 0.1);
    double zeta = 0, rnorm = 0;
    for (int it = 1; it <= niter; it++) {
        /* conjugate gradient for A z = x */
#pragma omp parallel for
        for (int i = 0; i < n; i++) {
            z[i] = 0;
            r[i] = x[i];
            p[i] = r[i];
        }
        double rho = dot(r, r);
        for (int cg = 0; cg < CGIT; cg++) {
            matvec(p, q);
            double alpha = rho / dot(p, q);
#pragma omp parallel for
            for (int i = 0; i < n; i++) {
                z[i] += alpha * p[i];
                r[i] -= alpha * q[i];
            }
            double rho0 = rho;
            rho = dot(r, r);
            double beta = rho / rho0;
#pragma omp parallel for
            for (int i = 0; i < n; i++)
                p[i] = r[i] + beta * p[i];
        }
        matvec(z, r);
        double diff = 0;
#pragma omp parallel for reduction(+ : diff)
        for (int i = 0; i < n; i++)
            diff += (x[i] - r[i]) * (x[i] - r[i]);
        rnorm = sqrt(diff);
        double xz = dot(x, z), zz = dot(z, z);
        zeta = 1.0 / xz;
        double scale = 1.0 / sqrt(zz);
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            x[i] = scale * z[i];
        printf(" %5d  residual %s  %.10f\n", it, rnorm < 1e-9 ? "< 1e-9" : ">= 1e-9", zeta);
    }
    printf(" CG Benchmark equivalent, class %c: n = %d\n zeta = %.10f\n", cls, n, zeta);
    double r0 = ref[cls == 'W'];
    printf(" Verification = %s\n", fabs(zeta - r0) <= 1e-8 * fabs(r0) ? "SUCCESSFUL" : "UNSUCCESSFUL");
    return 0;
}
