/* An equivalent of the NAS SP benchmark (written for capecc's tests, not NPB's code): an
   alternating-direction implicit scheme for a 3-D diffusion problem; each step forms the
   right-hand side (`omp for`), then solves scalar pentadiagonal systems along every line in
   x, then y, then z (lines shared out with `omp for`, each copied into private buffers).
   Verification: the norm of the solution and of its last change. Class S (12^3) or W
   (36^3) (argument). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 10
#define MAXN 64

int n;
double *u, *rhs;

#define AT(a, k, j, i) a[((long)(k) * n + (j)) * n + (i)]

/* solves the pentadiagonal system [e c b c e] x = d of m unknowns in place (no pivoting:
   the matrix is diagonally dominant) */
static void penta(double *d, int m, double b, double c, double e)
{
    double lo1[MAXN], lo2[MAXN], dg[MAXN], up1[MAXN], up2[MAXN];
    for (int i = 0; i < m; i++) {
        lo2[i] = i >= 2 ? e : 0;
        lo1[i] = i >= 1 ? c : 0;
        dg[i] = b;
        up1[i] = i + 1 < m ? c : 0;
        up2[i] = i + 2 < m ? e : 0;
    }
    for (int i = 0; i < m; i++) {
        for (int r = 1; r <= 2 && i + r < m; r++) {
            double below = r == 1 ? lo1[i + 1] : lo2[i + 2];
            double factor = below / dg[i];
            if (r == 1) {
                lo1[i + 1] = 0;
                dg[i + 1] -= factor * up1[i];
                up1[i + 1] -= factor * up2[i];
            } else {
                lo2[i + 2] = 0;
                lo1[i + 2] -= factor * up1[i];
                dg[i + 2] -= factor * up2[i];
            }
            d[i + r] -= factor * d[i];
        }
    }
    for (int i = m - 1; i >= 0; i--) {
        double s = d[i];
        if (i + 1 < m)
            s -= up1[i] * d[i + 1];
        if (i + 2 < m)
            s -= up2[i] * d[i + 2];
        d[i] = s / dg[i];
    }
}

int main(int argc, char **argv)
{
    char cls = argc > 1 ? argv[1][0] : 'S';
    n = cls == 'W' ? 36 : 12;
    const double ref[2][2] = {{2.0133737633e-01, 1.4731571849e-03}, {9.3701666750e-02, 2.2192566404e-04}};
    long total = (long)n * n * n;
    u = malloc(total * sizeof *u);
    rhs = malloc(total * sizeof *rhs);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                AT(u, k, j, i) = exp(-((i - n / 3.0) * (i - n / 3.0) + (j - n / 2.0) * (j - n / 2.0) +
                                       (k - n / 1.5) * (k - n / 1.5)) / n);
    const double s = 0.3, b = 1 + 2.5 * s, c = -s, e = 0.25 * s;
    double change = 0;
    for (int step = 1; step <= STEPS; step++) {
        change = 0;
#pragma omp parallel
        {
            double line[MAXN];
#pragma omp for
            for (int k = 0; k < n; k++)
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < n; i++) {
                        double lap = -6 * AT(u, k, j, i);
                        lap += i > 0 ? AT(u, k, j, i - 1) : 0;
                        lap += i < n - 1 ? AT(u, k, j, i + 1) : 0;
                        lap += j > 0 ? AT(u, k, j - 1, i) : 0;
                        lap += j < n - 1 ? AT(u, k, j + 1, i) : 0;
                        lap += k > 0 ? AT(u, k - 1, j, i) : 0;
                        lap += k < n - 1 ? AT(u, k + 1, j, i) : 0;
                        AT(rhs, k, j, i) = 0.05 * lap;
                    }
#pragma omp for
            for (int k = 0; k < n; k++)
                for (int j = 0; j < n; j++) {
                    for (int i = 0; i < n; i++)
                        line[i] = AT(rhs, k, j, i);
                    penta(line, n, b, c, e);
                    for (int i = 0; i < n; i++)
                        AT(rhs, k, j, i) = line[i];
                }
#pragma omp for
            for (int k = 0; k < n; k++)
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++)
                        line[j] = AT(rhs, k, j, i);
                    penta(line, n, b, c, e);
                    for (int j = 0; j < n; j++)
                        AT(rhs, k, j, i) = line[j];
                }
#pragma omp for reduction(+ : change)
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k < n; k++)
                        line[k] = AT(rhs, k, j, i);
                    penta(line, n, b, c, e);
                    for (int k = 0; k < n; k++) {
                        AT(u, k, j, i) += line[k];
                        change += line[k] * line[k];
                    }
                }
        }
    }
    double norm = 0;
#pragma omp parallel for reduction(+ : norm)
    for (long p = 0; p < total; p++)
        norm += u[p] * u[p];
    norm = sqrt(norm / total);
    change = sqrt(change / total);
    printf(" SP Benchmark equivalent, class %c: %d^3 grid, %d steps\n", cls, n, STEPS);
    printf(" solution norm %.10e\n last change %.10e\n", norm, change);
    const double *r = ref[cls == 'W'];
    int ok = fabs(norm - r[0]) <= 1e-8 * fabs(r[0]) && fabs(change - r[1]) <= 1e-8 * fabs(r[1]);
    printf(" Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    return 0;
}
