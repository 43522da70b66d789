/* tasks of a `single` that write through pointers: to a local of the region (an array, a
   structure), to a local of a recursive generating function; those run on the single's
   thread (a spread task would write another rank's copy), while tasks writing a heap array
   through a pointer parameter, or a global array through a local pointer, are spread */
#include <stdio.h>
#include <stdlib.h>

#define N 4000

struct box {
    int v[8];
};

int result, result3, sums[4];
int table[64];

static void fill(int *p, int k)
{
    p[k] = k * k;
}

/* quicksort of a heap array through a pointer parameter: its tasks are spread */
static void quicksort(int *a, int lo, int hi)
{
    if (hi - lo < 2)
        return;
    int pivot = a[(lo + hi) / 2], i = lo, j = hi - 1;
    while (i <= j) {
        while (a[i] < pivot)
            i++;
        while (a[j] > pivot)
            j--;
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }
#pragma omp task
    quicksort(a, lo, j + 1);
#pragma omp task
    quicksort(a, i, hi);
#pragma omp taskwait
}

/* a generating function whose tasks write its own array through a pointer */
static long squares(int n)
{
    long part[2] = {0, 0};
    long *pp = part;
    if (n < 2)
        return n;
#pragma omp task firstprivate(pp)
    pp[0] = squares(n - 1);
#pragma omp task firstprivate(pp)
    pp[1] = (long)n * n;
#pragma omp taskwait
    return part[0] + part[1];
}

int main(void)
{
    int *keys = malloc(N * sizeof *keys);
    unsigned s = 99;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        keys[i] = (int)(s >> 9) % 50000;
    }
    long sq = 0;
#pragma omp parallel
    {
        int acc[8] = {0};
        int *pa = acc;
        struct box b = {{0}};
        struct box *pb = &b;
        int *pt = table;
#pragma omp single
        {
            for (int k = 0; k < 8; k++) {
#pragma omp task firstprivate(k)
                pa[k] = k * k;
            }
#pragma omp taskwait
            for (int k = 0; k < 8; k++)
                result += acc[k];
        }
#pragma omp single
        {
            for (int k = 0; k < 8; k++) {
#pragma omp task
                pb->v[k] = 2 * k;
            }
#pragma omp taskwait
            for (int k = 0; k < 8; k++)
                result3 += b.v[k];
        }
#pragma omp single
        {
            for (int k = 0; k < 8; k++) {
#pragma omp task
                fill(pa, k);
            }
#pragma omp taskwait
            for (int k = 0; k < 4; k++)
                sums[k] = acc[k] + acc[7 - k];
        }
#pragma omp single
        {
            for (int k = 0; k < 64; k++) {
#pragma omp task
                pt[k] = 3 * k;
            }
        }
#pragma omp single
        quicksort(keys, 0, N);
#pragma omp single
        sq = squares(12);
    }
    int sorted = 1;
    long check = 0;
    for (int i = 0; i < N; i++) {
        check = (check * 31 + keys[i]) % 1000000007;
        if (i > 0 && keys[i - 1] > keys[i])
            sorted = 0;
    }
    long t = 0;
    for (int k = 0; k < 64; k++)
        t += table[k];
    printf("result %d result3 %d sums %d %d %d %d\n", result, result3, sums[0], sums[1], sums[2],
           sums[3]);
    printf("table %ld sorted %d checksum %ld squares %ld\n", t, sorted, check, sq);
    free(keys);
    return 0;
}
