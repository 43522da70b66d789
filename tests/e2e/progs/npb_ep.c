/* An equivalent of the NAS EP benchmark (written for capecc's tests, not NPB's code): pairs
   of uniform random numbers in batches, each batch seeded by its number so that the result
   does not depend on the team; Gaussian pairs by the polar method, counted per annulus in
   per-thread counts that are merged at the end, and their sums. Class S or W (argument). The
   per-thread counts are merged in a `critical` around a loop, as NAS EP does. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>

#define NQ 10
#define BATCH 2048

double sx, sy, q[NQ];

static double uniform(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

int main(int argc, char **argv)
{
    char cls = argc > 1 ? argv[1][0] : 'S';
    int m = cls == 'W' ? 25 : 22;
    long batches = (1L << m) / BATCH;
    const double ref[2][2] = {{1.100486121e+03, -2.201510446e+02}, {2.364857637e+03, 8.063481650e+03}}; /* sx, sy for S and W */

#pragma omp parallel
    {
        double qq[NQ] = {0};
#pragma omp for reduction(+ : sx, sy) schedule(static)
        for (long b = 0; b < batches; b++) {
            uint64_t s = (uint64_t)b * 0x9E3779B97F4A7C15ULL + 271828183ULL;
            for (int i = 0; i < BATCH; i++) {
                double x1 = 2 * uniform(&s) - 1, x2 = 2 * uniform(&s) - 1;
                double t = x1 * x1 + x2 * x2;
                if (t > 0 && t <= 1) {
                    double f = sqrt(-2 * log(t) / t), gx = x1 * f, gy = x2 * f;
                    int l = (int)fmax(fabs(gx), fabs(gy));
                    if (l < NQ)
                        qq[l] += 1;
                    sx += gx;
                    sy += gy;
                }
            }
        }
#pragma omp critical
        {
            for (int i = 0; i < NQ; i++)
                q[i] += qq[i];
        }
    }
    double gc = 0;
    printf(" EP Benchmark equivalent, class %c: 2^%d pairs\n", cls, m);
    for (int i = 0; i < NQ; i++) {
        printf("%3d %15.0f\n", i, q[i]);
        gc += q[i];
    }
    printf(" Gaussian pairs = %15.0f\n sx = %.9e\n sy = %.9e\n", gc, sx, sy);
    const double *r = ref[cls == 'W'];
    int ok = fabs(sx - r[0]) <= 1e-8 * fabs(r[0]) && fabs(sy - r[1]) <= 1e-8 * fabs(r[1]);
    printf(" Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    return 0;
}
