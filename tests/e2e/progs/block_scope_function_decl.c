/* functions declared inside the function that holds a region (defined after it), called or
   passed as a comparator inside the region */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int a[100];
    double b[100];
    long big[100];
    int rows[8][16];
    int twice(double);
    double half(double);
    long widen(long);
    int by_value(const void *, const void *);
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        a[i] = twice(i + 0.25);
        b[i] = half(i);
        big[i] = widen(i);
    }
    for (int r = 0; r < 8; r++)
        for (int k = 0; k < 16; k++)
            rows[r][k] = (r * 37 + k * 11) % 23;
#pragma omp parallel for
    for (int r = 0; r < 8; r++)
        qsort(rows[r], 16, sizeof rows[r][0], by_value);
    long s = 0;
    double t = 0;
    for (int i = 0; i < 100; i++) {
        s += a[i] + big[i];
        t += b[i];
    }
    printf("%ld %.2f\n", s, t);
    for (int r = 0; r < 8; r++)
        printf("%d %d %d\n", rows[r][0], rows[r][7], rows[r][15]);
    return 0;
}

int twice(double x)
{
    return (int)(2 * x);
}

double half(double x)
{
    return x / 2;
}

long widen(long x)
{
    return x * 3000000000L;
}

int by_value(const void *p, const void *q)
{
    int x = *(const int *)p, y = *(const int *)q;
    return (x > y) - (x < y);
}
