/* write scopes: every form of write the compiler's write-scope analysis follows (globals,
 * struct members, pointers to heap blocks and to arrays, derived private pointers,
 * memset/memcpy, statics, clause write-backs), next to a large block no region writes:
 * a scope that missed a write would lose it once the runtime scans only the scope */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096
#define M 64

double g[N];
double g2[M][M];
struct stats {
    double sum[8];
    long count;
} gs;
double total, last;

struct cell {
    double v;
    double w[4];
};

static void through_parameters(double *a, double (*m)[M], struct cell *cells, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        a[i] = 0.5 * i;
        *(a + n + i) = i + 1.0;
        m[i % M][i / M % M] += 1.0;
        cells[i].v = i;
        cells[i].w[i % 4] = -i;
        (cells + i)->w[0] += 1.0;
    }
}

static double sum(const double *x, long n)
{
    double s = 0;
    for (long i = 0; i < n; i++)
        s += x[i] * (double)(i % 97 + 1);
    return s;
}

int main(void)
{
    /* large blocks: the runtime remembers their extent */
    size_t big_n = 1 << 21; /* 16 MiB, written before the regions only */
    double *big = malloc(big_n * sizeof *big);
    for (size_t i = 0; i < big_n; i++)
        big[i] = (double)(i % 13);
    double *a = calloc(2 * N, sizeof *a);
    double *b = calloc(N, sizeof *b);
    double *c = calloc(N, sizeof *c);
    double (*m)[M] = calloc(M, sizeof *m);
    struct cell *cells = calloc(N, sizeof *cells);
    char *small = calloc(64, 1);
    static double kept[16];
    double local[16] = {0};

#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        g[i] = i * 0.25;
        g2[i % M][i / M] = i;
    }
#pragma omp parallel
    {
        gs.sum[0] = 1.0;
#pragma omp for reduction(+:total)
        for (int i = 0; i < N; i++)
            total += g[i];
#pragma omp single
        gs.count = 42;
    }
    through_parameters(a, m, cells, N);

    /* derived private pointers: a region-local pointer follows where its values come from */
#pragma omp parallel
    {
        double *q = b + 1;
        double *r = &c[2];
        double *s;
        s = (double *)q;
#pragma omp for
        for (int i = 0; i < N - 3; i++) {
            q[i] = i;
            r[i] = 2.0 * i;
            s[i] += 1.0;
        }
        char *t = small;
        t += 3;
#pragma omp single
        t[0] = 'x';
    }
    /* a firstprivate pointer starts from the original's value */
    double *p = c;
#pragma omp parallel for firstprivate(p)
    for (int i = 0; i < 8; i++) {
        p[N - 1 - i] = -1.0;
    }
    /* memset / memcpy write their destination */
#pragma omp parallel
    {
#pragma omp single
        memset(b, 0, 16 * sizeof *b);
#pragma omp single
        memcpy(g + 8, a, 8 * sizeof *g);
    }
    /* statics, lastprivate, stack-only */
#pragma omp parallel for lastprivate(last)
    for (int i = 0; i < 16; i++) {
        kept[i] = i * i;
        last = i;
        local[i] = 3.0 * i;
    }
    /* private and shared locals only: no span at all */
    int t = 0;
#pragma omp parallel private(t)
    {
        t = 1;
        int k = t + 1;
#pragma omp single
        local[0] += k;
    }

    printf("g %.3f g2 %.3f gs %.3f %ld total %.3f\n", sum(g, N), sum(&g2[0][0], M * M),
           gs.sum[0], gs.count, total);
    printf("a %.3f m %.3f cells %.3f\n", sum(a, 2 * N), sum(&m[0][0], M * M),
           sum(&cells[0].v, N * 5L));
    printf("b %.3f c %.3f small %s\n", sum(b, N), sum(c, N), small + 3);
    printf("kept %.3f last %.1f local %.3f big %.3f\n", sum(kept, 16), last,
           sum(local, 16), sum(big, (long)big_n));
    free(big);
    free(a);
    free(b);
    free(c);
    free(m);
    free(cells);
    free(small);
    return 0;
}
