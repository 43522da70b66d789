/* An equivalent of the NAS BT benchmark (written for capecc's tests, not NPB's code): an
   alternating-direction implicit scheme for a 3-D system of two coupled diffusion equations;
   each step forms the right-hand side (`omp for`), then solves block-tridiagonal systems
   (2 x 2 blocks, block Thomas algorithm) along every line in x, then y, then z (lines shared
   out with `omp for`, copied into private buffers). Verification: the norms of both
   components. Class S (12^3) or W (24^3) (argument). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 10
#define MAXN 64

typedef struct {
    double a, b, c, d; /* [a b; c d] */
} mat2;
typedef struct {
    double x, y;
} vec2;

int n;
vec2 *u, *rhs;

#define AT(a, k, j, i) a[((long)(k) * n + (j)) * n + (i)]

static mat2 mul(mat2 p, mat2 q)
{
    mat2 r = {p.a * q.a + p.b * q.c, p.a * q.b + p.b * q.d, p.c * q.a + p.d * q.c, p.c * q.b + p.d * q.d};
    return r;
}
static vec2 apply(mat2 p, vec2 v)
{
    vec2 r = {p.a * v.x + p.b * v.y, p.c * v.x + p.d * v.y};
    return r;
}
static mat2 inverse(mat2 p)
{
    double det = p.a * p.d - p.b * p.c;
    mat2 r = {p.d / det, -p.b / det, -p.c / det, p.a / det};
    return r;
}

/* block Thomas: A x[i-1] + B x[i] + C x[i+1] = d[i], in place in d */
static void block_tridiagonal(vec2 *d, int m, mat2 A, mat2 B, mat2 C)
{
    mat2 inv[MAXN];
    inv[0] = inverse(B);
    for (int i = 1; i < m; i++) {
        mat2 L = mul(A, inv[i - 1]), LC = mul(L, C);
        mat2 Bi = {B.a - LC.a, B.b - LC.b, B.c - LC.c, B.d - LC.d};
        vec2 Ld = apply(L, d[i - 1]);
        d[i].x -= Ld.x;
        d[i].y -= Ld.y;
        inv[i] = inverse(Bi);
    }
    d[m - 1] = apply(inv[m - 1], d[m - 1]);
    for (int i = m - 2; i >= 0; i--) {
        vec2 Cx = apply(C, d[i + 1]), t = {d[i].x - Cx.x, d[i].y - Cx.y};
        d[i] = apply(inv[i], t);
    }
}

int main(int argc, char **argv)
{
    char cls = argc > 1 ? argv[1][0] : 'S';
    n = cls == 'W' ? 24 : 12;
    const double ref[2][2] = {{8.1429128316e-01, 5.1647958933e-01}, {1.1555825943e+00, 4.9887878030e-01}};
    long total = (long)n * n * n;
    u = malloc(total * sizeof *u);
    rhs = malloc(total * sizeof *rhs);
    for (int k = 0; k < n; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                AT(u, k, j, i).x = sin(M_PI * (i + 1) / (n + 1)) * sin(M_PI * (j + 1) / (n + 1)) * (1 + 0.1 * k);
                AT(u, k, j, i).y = cos(0.3 * i) * sin(0.2 * j + 0.1 * k);
            }
    const double s = 0.25;
    const mat2 A = {-s, -0.2 * s, -0.1 * s, -s}, C = A;
    const mat2 B = {1 + 2 * s + 0.1, 0, 0, 1 + 2 * s + 0.2};
    for (int step = 1; step <= STEPS; step++) {
#pragma omp parallel
        {
            vec2 line[MAXN];
#pragma omp for
            for (int k = 0; k < n; k++)
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < n; i++) {
                        vec2 c = AT(u, k, j, i), l = {-6 * c.x, -6 * c.y};
                        const vec2 zero = {0, 0};
                        vec2 nb[6] = {i > 0 ? AT(u, k, j, i - 1) : zero, i < n - 1 ? AT(u, k, j, i + 1) : zero,
                                      j > 0 ? AT(u, k, j - 1, i) : zero, j < n - 1 ? AT(u, k, j + 1, i) : zero,
                                      k > 0 ? AT(u, k - 1, j, i) : zero, k < n - 1 ? AT(u, k + 1, j, i) : zero};
                        for (int q = 0; q < 6; q++) {
                            l.x += nb[q].x;
                            l.y += nb[q].y;
                        }
                        AT(rhs, k, j, i).x = 0.04 * l.x - 0.01 * c.y;
                        AT(rhs, k, j, i).y = 0.04 * l.y + 0.01 * c.x;
                    }
#pragma omp for
            for (int k = 0; k < n; k++)
                for (int j = 0; j < n; j++) {
                    for (int i = 0; i < n; i++)
                        line[i] = AT(rhs, k, j, i);
                    block_tridiagonal(line, n, A, B, C);
                    for (int i = 0; i < n; i++)
                        AT(rhs, k, j, i) = line[i];
                }
#pragma omp for
            for (int k = 0; k < n; k++)
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++)
                        line[j] = AT(rhs, k, j, i);
                    block_tridiagonal(line, n, A, B, C);
                    for (int j = 0; j < n; j++)
                        AT(rhs, k, j, i) = line[j];
                }
#pragma omp for
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    for (int k = 0; k < n; k++)
                        line[k] = AT(rhs, k, j, i);
                    block_tridiagonal(line, n, A, B, C);
                    for (int k = 0; k < n; k++) {
                        AT(u, k, j, i).x += line[k].x;
                        AT(u, k, j, i).y += line[k].y;
                    }
                }
        }
    }
    double nx = 0, ny = 0;
#pragma omp parallel for reduction(+ : nx, ny)
    for (long p = 0; p < total; p++) {
        nx += u[p].x * u[p].x;
        ny += u[p].y * u[p].y;
    }
    nx = sqrt(nx / total);
    ny = sqrt(ny / total);
    printf(" BT Benchmark equivalent, class %c: %d^3 grid, %d steps\n", cls, n, STEPS);
    printf(" norms %.10e %.10e\n", nx, ny);
    const double *r = ref[cls == 'W'];
    int ok = fabs(nx - r[0]) <= 1e-8 * fabs(r[0]) && fabs(ny - r[1]) <= 1e-8 * fabs(r[1]);
    printf(" Verification = %s\n", ok ? "SUCCESSFUL" : "UNSUCCESSFUL");
    return 0;
}
