/* An equivalent of the NAS FT benchmark (written for capecc's tests, not NPB's code): a 3-D
   complex field is transformed by 1-D radix-2 FFTs along each dimension (each line copied
   into a private buffer and back: the transposes), evolved in frequency space by Gaussian
   factors, transformed back each iteration, and checksummed over a fixed set of points.
   Class S (32 x 32 x 16) or W (64 x 64 x 32) (argument). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define ITER 6
#define MAXN 64

typedef struct {
    double re, im;
} cplx;

int n1, n2, n3;
cplx *field, *spec;
double *decay;

#define IDX(i, j, k) (((long)(k) * n2 + (j)) * n1 + (i))

/* in-place radix-2 FFT of a line of n points; sign -1 forward, +1 inverse */
static void fft_line(cplx *a, int n, int sign)
{
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j ^= bit;
        if (i < j) {
            cplx t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double ang = sign * 2 * M_PI / len;
        for (int s = 0; s < n; s += len)
            for (int k = 0; k < len / 2; k++) {
                double wr = cos(ang * k), wi = sin(ang * k);
                cplx x = a[s + k], y = a[s + k + len / 2];
                cplx t = {y.re * wr - y.im * wi, y.re * wi + y.im * wr};
                a[s + k].re = x.re + t.re;
                a[s + k].im = x.im + t.im;
                a[s + k + len / 2].re = x.re - t.re;
                a[s + k + len / 2].im = x.im - t.im;
            }
    }
}

/* the 3-D transform of `in` into `out`, one dimension after the other */
static void fft3d(const cplx *in, cplx *out, int sign)
{
#pragma omp parallel
    {
        cplx line[MAXN];
#pragma omp for
        for (int k = 0; k < n3; k++)
            for (int j = 0; j < n2; j++) {
                for (int i = 0; i < n1; i++)
                    line[i] = in[IDX(i, j, k)];
                fft_line(line, n1, sign);
                for (int i = 0; i < n1; i++)
                    out[IDX(i, j, k)] = line[i];
            }
#pragma omp for
        for (int k = 0; k < n3; k++)
            for (int i = 0; i < n1; i++) {
                for (int j = 0; j < n2; j++)
                    line[j] = out[IDX(i, j, k)];
                fft_line(line, n2, sign);
                for (int j = 0; j < n2; j++)
                    out[IDX(i, j, k)] = line[j];
            }
#pragma omp for
        for (int j = 0; j < n2; j++)
            for (int i = 0; i < n1; i++) {
                for (int k = 0; k < n3; k++)
                    line[k] = out[IDX(i, j, k)];
                fft_line(line, n3, sign);
                for (int k = 0; k < n3; k++)
                    out[IDX(i, j, k)] = line[k];
            }
    }
}

int main(int argc, char **argv)
{
    char cls = argc > 1 ? argv[1][0] : 'S';
    n1 = cls == 'W' ? 64 : 32;
    n2 = n1;
    n3 = n1 / 2;
    const double ref[2][2] = {{5.0522358895e+02, 4.8550573113e+02}, {5.4958913075e+02, 5.3989651028e+02}}; /* last checksum (re, im) for S and W */
    long total = (long)n1 * n2 * n3;
    field = malloc(total * sizeof *field);
    spec = malloc(total * sizeof *spec);
    decay = malloc(total * sizeof *decay);
    unsigned s = 314159u;
    for (long p = 0; p < total; p++) {
        s = s * 1103515245u + 12345u;
        field[p].re = (s >> 8) / 16777216.0;
        s = s * 1103515245u + 12345u;
        field[p].im = (s >> 8) / 16777216.0;
    }
    double alpha = 1e-6;
#pragma omp parallel for
    for (int k = 0; k < n3; k++)
        for (int j = 0; j < n2; j++)
            for (int i = 0; i < n1; i++) {
                int ki = i < n1 / 2 ? i : i - n1, kj = j < n2 / 2 ? j : j - n2, kk = k < n3 / 2 ? k : k - n3;
                decay[IDX(i, j, k)] = exp(-4 * alpha * M_PI * M_PI * (ki * ki + kj * kj + kk * kk));
            }
    fft3d(field, spec, -1);
    double cre = 0, cim = 0;
    for (int it = 1; it <= ITER; it++) {
#pragma omp parallel for
        for (long p = 0; p < total; p++) {
            spec[p].re *= decay[p];
            spec[p].im *= decay[p];
        }
        fft3d(spec, field, 1);
        cre = 0;
        cim = 0;
#pragma omp parallel for reduction(+ : cre, cim)
        for (int q = 1; q <= 1024; q++) {
            long p = IDX(q % n1, (3 * q) % n2, (5 * q) % n3);
            cre += field[p].re / total;
            cim += field[p].im / total;
        }
        printf(" T = %d  checksum %.10e %.10e\n", it, cre, cim);
    }
    printf(" FT Benchmark equivalent, class %c: %d x %d x %d\n", cls, n1, n2, n3);
    const double *r = ref[cls == 'W'];
    int ok = fabs(cre - r[0]) <= 1e-9 * fabs(r[0]) && fabs(cim - r[1]) <= 1e-9 * fabs(r[1]);
    printf(" Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    return 0;
}
