/* Array-section reductions: a whole array, a[lo:len] of an array, p[0:n] through a pointer,
   a two-dimensional section, max and * on sections, in `parallel for` and in `parallel` with
   an orphan-free `for` inside. */
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define B 37

int hist[B];
double rows[4][3];

int main(void)
{
    int n = N;
    long a[10] = {0};
    double *p = malloc(sizeof(double) * 2000);
    for (int i = 0; i < 2000; i++)
        p[i] = 0.5;
    int mx[8];
    for (int k = 0; k < 8; k++)
        mx[k] = -1;
    unsigned long long prod[3] = {1, 1, 1};

#pragma omp parallel for reduction(+ : hist)
    for (int i = 0; i < n; i++)
        hist[(i * 7) % B] += i % 5;

#pragma omp parallel for reduction(+ : a[2:5])
    for (int i = 0; i < n; i++)
        a[2 + i % 5] += i;

#pragma omp parallel for reduction(+ : p[100:1500])
    for (int i = 0; i < 3 * n; i++)
        p[100 + (i * 13) % 1500] += 0.25 * (i % 3);

#pragma omp parallel for reduction(+ : rows[0:4][0:3])
    for (int i = 0; i < n; i++)
        rows[i % 4][i % 3] += 1.0 / (1 + i % 7);

#pragma omp parallel for reduction(max : mx[0:8])
    for (int i = 0; i < n; i++)
        if ((i * 31) % 977 > mx[i % 8])
            mx[i % 8] = (i * 31) % 977;

#pragma omp parallel reduction(* : prod[0:3])
    {
#pragma omp for
        for (int i = 1; i <= 30; i++)
            prod[i % 3] *= (unsigned long long)(i % 4 + 1);
    }

    long h = 0;
    for (int k = 0; k < B; k++)
        h = h * 31 + hist[k];
    printf("hist %ld\n", h);
    for (int k = 0; k < 10; k++)
        printf("a[%d] = %ld\n", k, a[k]);
    double s = 0;
    for (int i = 0; i < 2000; i++)
        s += p[i] * (i % 11);
    printf("p %.6f p[0] %.2f p[1999] %.2f\n", s, p[0], p[1999]);
    for (int r = 0; r < 4; r++)
        printf("rows %d: %.6f %.6f %.6f\n", r, rows[r][0], rows[r][1], rows[r][2]);
    for (int k = 0; k < 8; k++)
        printf("mx[%d] = %d\n", k, mx[k]);
    printf("prod %llu %llu %llu\n", prod[0], prod[1], prod[2]);
    free(p);
    return 0;
}
