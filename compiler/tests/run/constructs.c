/* Every lowered construct: parallel, orphaned for, schedules, collapse, sections, single,
 * master/masked, critical/atomic updates, threadprivate/copyin. Output must match gcc -fopenmp. */
#include <stdio.h>
#include <omp.h>

#define N 50
int a[N], b[N][7], c[4][5][3];
int hist[10];
long total;
int counter = 100;
int tp = 7;
#pragma omp threadprivate(tp)

struct acc { long sum; double prod; };
struct acc g_acc = { 0, 1.0 };

/* orphaned: worksharing when called inside a region, the whole loop when called outside */
static void fill(int *v, int n, int k)
{
    int i;
#pragma omp for
    for (i = 0; i < n; i++)
        v[i] += k * i;
}

long orphan_acc;
static void orphan_sum(int n)
{
#pragma omp for reduction(+:orphan_acc) schedule(dynamic, 3)
    for (int i = 0; i < n; i++)
        orphan_acc += i;
}

int main(void)
{
    int x = 5, last = -1, mx = -1000, mn = 1000, flag = 0;
    long sum = 0, sum2 = 0;
    double prod = 1.0;
    int per_thread[16] = {0};

    fill(a, N, 1);
#pragma omp parallel firstprivate(x) reduction(+:sum)
    {
        int me = omp_get_thread_num();
        x += me;
        per_thread[me] = x;
        sum += me + 1;
        fill(a, N, 2);
#pragma omp for lastprivate(last) schedule(guided)
        for (int i = 0; i < N; i++)
            last = i * 3;
#pragma omp for collapse(2) reduction(+:sum2) nowait
        for (int i = 0; i < N; i++)
            for (int j = 0; j < 7; j++) {
                b[i][j] = i * 7 + j;
                sum2 += b[i][j];
            }
#pragma omp barrier
#pragma omp for collapse(3) schedule(static, 2)
        for (int i = 3; i >= 0; i--)
            for (int j = 0; j < 10; j += 2)
                for (int k = 0; k < 3; k++)
                    c[i][j / 2][k] = i * 100 + j * 10 + k;
#pragma omp for schedule(runtime)
        for (int i = 0; i < N; i++)
            a[i] += 1;
#pragma omp for schedule(auto) reduction(max:mx) reduction(min:mn)
        for (int i = 0; i < N; i++) {
            if (a[i] % 17 > mx) mx = a[i] % 17;
            if (a[i] % 13 < mn) mn = a[i] % 13;
        }
#pragma omp critical
        {
            total += x;
            counter -= 1;
            g_acc.sum += me;
        }
#pragma omp critical(minmax)
        if (x > g_acc.prod) g_acc.prod = x;
#pragma omp atomic
        hist[me % 10]++;
#pragma omp atomic update
        prod *= 2.0;
#pragma omp atomic
        total = total + 10;
#pragma omp atomic write
        flag = 1;
#pragma omp master
        per_thread[15] = 42;
#pragma omp flush
    }
    printf("x=%d last=%d sum=%ld sum2=%ld mx=%d mn=%d\n", x, last, sum, sum2, mx, mn);
    printf("total=%ld counter=%d acc=%ld %.1f prod=%.1f flag=%d\n", total, counter, g_acc.sum,
           g_acc.prod, prod, flag);
    for (int t = 0; t < 16; t++)
        printf("%d ", per_thread[t]);
    printf("\n");
    long check = 0;
    for (int i = 0; i < N; i++)
        check += a[i] * (i + 1);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 7; j++)
            check += b[i][j];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 5; j++)
            for (int k = 0; k < 3; k++)
                check += c[i][j][k] * (k + 1);
    printf("check=%ld hist=%d %d %d\n", check, hist[0], hist[1], hist[2]);

    /* sections */
    int s1 = 0, s2 = 0, s3 = 0, sl = 0;
    long sr = 0;
#pragma omp parallel sections lastprivate(sl) reduction(+:sr)
    {
        s1 = 1;
        sl = 10;
        sr += 1;
#pragma omp section
        {
            s2 = 2;
            sl = 20;
            sr += 2;
        }
#pragma omp section
        s3 = 3, sl = 30, sr += 4;
    }
    printf("sections %d %d %d %d %ld\n", s1, s2, s3, sl, sr);

    /* single, copyprivate, masked */
    int seen[16] = {0};
    int masked_hits = 0;
#pragma omp parallel
    {
        int v = -1;
#pragma omp single copyprivate(v)
        v = 77;
        seen[omp_get_thread_num()] = v;
#pragma omp single nowait
        seen[15] = omp_get_num_threads();
#pragma omp masked filter(1)
        masked_hits += 1;
    }
    for (int t = 0; t < 4; t++)
        printf("%d ", seen[t]);
    printf("| %d %d\n", seen[15], masked_hits);

    /* threadprivate + copyin */
    tp = 11;
    int tps[16] = {0};
#pragma omp parallel copyin(tp)
    {
        tp += omp_get_thread_num();
        tps[omp_get_thread_num()] = tp;
    }
    int tps2[16] = {0};
#pragma omp parallel
    tps2[omp_get_thread_num()] = tp;
    printf("tp %d %d %d | %d %d %d | %d\n", tps[0], tps[1], tps[2], tps2[0], tps2[1], tps2[2], tp);

    /* orphaned loops outside and inside a region, nested parallel */
    long o2 = 0;
    orphan_sum(10);
    long o1 = orphan_acc;
#pragma omp parallel reduction(+:o2)
    {
        o2 += 1;
        orphan_sum(10);
#pragma omp parallel
        {
#pragma omp atomic
            counter += omp_get_num_threads();
        }
    }
    printf("orphan %ld %ld %ld counter=%d\n", o1, orphan_acc, o2, counter);
    return 0;
}
