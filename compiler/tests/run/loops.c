/* Many loop shapes: trip counts, steps, types, clauses. Output must match gcc -fopenmp. */
#include <stdio.h>
#include <stddef.h>
#include <limits.h>

#define N 37
int hits[1000];
long long total;

static void clear(void) { for (int i = 0; i < 1000; i++) hits[i] = 0; }
static long long sum(void) { long long s = 0; for (int i = 0; i < 1000; i++) s += (long long)hits[i] * (i + 1); return s; }

static void shapes(int lo, int hi, int step)
{
    int i;
    unsigned u;
    long long ll;
    size_t z;
    signed char c;
    clear();
#pragma omp parallel for
    for (i = lo; i < hi; i += step) hits[i + 100]++;
#pragma omp parallel for
    for (i = lo; i <= hi; i = i + step) hits[i + 100] += 2;
#pragma omp parallel for
    for (i = hi; i > lo; i -= step) hits[i + 100] += 3;
#pragma omp parallel for
    for (i = hi; i >= lo; i = i - step) hits[i + 100] += 5;
#pragma omp parallel for
    for (i = lo; hi > i; i = step + i) hits[i + 100] += 7;
#pragma omp parallel for
    for (i = lo; i != hi; i++) hits[i + 100] += 11;
#pragma omp parallel for
    for (i = hi; i != lo; --i) hits[i + 100] += 13;
    printf("int %d %d %d: %lld\n", lo, hi, step, sum());
    clear();
#pragma omp parallel for schedule(static, 2)
    for (u = 0; u < (unsigned)(hi + 100); u += step) hits[u]++;
#pragma omp parallel for
    for (ll = -5; ll <= (long long)hi; ll++) hits[ll + 100]++;
#pragma omp parallel for schedule(static, 3)
    for (z = 300; z > 200; z--) hits[z]++;
#pragma omp parallel for
    for (c = -10; c < 10; c++) hits[c + 100]++;
    printf("types %d %d %d: %lld\n", lo, hi, step, sum());
}

int main(void)
{
    int n = N, last = -1, x = 5, p = 1, mx = INT_MIN, mn = INT_MAX;
    double d = 0.0, prod = 1.0, dmax = -1.0;
    unsigned bits = 0, band = ~0u;
    int all = 1, any = 0, diff = 100;
    int arr[4] = {1, 2, 3, 4};
    int i;
    shapes(0, 10, 1);
    shapes(-7, 50, 3);
    shapes(5, 5, 2);
    shapes(10, 0, 4);
    shapes(-90, 90, 7);
#pragma omp parallel for lastprivate(last) firstprivate(x) private(p)
    for (i = 0; i < n; i++) {
        p = i * x;
        if (p % 3 == 0)
            continue;
        last = p;
        hits[i] = p;
    }
    printf("last %d i %d\n", last, hits[n - 1]);
#pragma omp parallel for lastprivate(i)
    for (i = 0; i < n; i += 5)
        hits[i] = -i;
    printf("i after %d\n", i);
#pragma omp parallel for reduction(+:d) reduction(*:prod) reduction(max:mx, dmax) reduction(min:mn)
    for (int k = 1; k <= 20; k++) {
        d += k * 0.5;
        prod *= 1.0 + k / 100.0;
        if (k * 7 % 23 > mx) mx = k * 7 % 23;
        if (k * 5 % 17 < mn) mn = k * 5 % 17;
        if (k * 1.5 > dmax) dmax = k * 1.5;
    }
    printf("%.3f %.6f %d %d %.1f\n", d, prod, mx, mn, dmax);
#pragma omp parallel for reduction(|:bits) reduction(&:band) reduction(&&:all) reduction(||:any) reduction(-:diff)
    for (int k = 0; k < 30; k++) {
        bits |= 1u << (k % 31);
        band &= ~(1u << (k % 7));
        all = all && (k < 100);
        any = any || (k == 17);
        diff -= k;
    }
    printf("%x %x %d %d %d\n", bits, band, all, any, diff);
#pragma omp parallel for private(arr) num_threads(2) if(n > 3)
    for (int k = 0; k < 8; k++) {
        arr[0] = k;
        hits[k] = arr[0] * 2;
    }
    printf("%d %d\n", arr[0], hits[7]);
    return 0;
}
