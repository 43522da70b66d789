/* `parallel master` and `parallel masked` (OpenMP 5.0/5.1, accepted by gcc 12): a parallel
   region whose block only the master (the filter) thread runs; the clauses are the region's.
   e2e: openmp-only (private copies: the program without OpenMP writes the originals) */
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#else
static int omp_get_thread_num(void) { return 0; }
static int omp_get_num_threads(void) { return 1; }
#endif

#define N 64
int tp = 5;
#pragma omp threadprivate(tp)

static long fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
    double arr[N];
    int p = 7, fp = 11, count = 0, team = 0;
    /* shared, private, firstprivate, num_threads */
#pragma omp parallel master num_threads(3) shared(arr, count, team) private(p) firstprivate(fp)
    {
        p = 100;
        fp += 1;
        for (int i = 0; i < N; i++)
            arr[i] = i * fp;
        count = fp + p;
        team = omp_get_num_threads();
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += arr[i];
    printf("p=%d fp=%d count=%d team=%d sum=%.1f\n", p, fp, count, team, s);

    /* reduction: the other threads contribute the identity */
    long sum = 1000;
    int n = N;
#pragma omp parallel master reduction(+ : sum) num_threads(4) default(none) shared(n)
    for (int i = 0; i < n; i++)
        sum += i;
    printf("sum=%ld\n", sum);

    /* heap blocks from the master block, kept after the region; tasks created there */
    int *buf = NULL;
    long results[8];
#pragma omp parallel master shared(buf, results)
    {
        buf = malloc(N * sizeof *buf);
        for (int i = 0; i < N; i++)
            buf[i] = 3 * i;
        for (int t = 0; t < 8; t++) {
#pragma omp task firstprivate(t) shared(results)
            results[t] = fib(12 + t);
        }
#pragma omp taskwait
    }
    long check = 0;
    for (int i = 0; i < N; i++)
        check += buf[i];
    printf("buf=%ld fib=%ld %ld %ld\n", check, results[0], results[4], results[7]);
    free(buf);

    /* a taskloop stacked under the construct */
    int sq[N];
#pragma omp parallel master num_threads(2)
#pragma omp taskloop grainsize(4)
    for (int i = 0; i < N; i++)
        sq[i] = i * i;
    printf("sq=%d %d\n", sq[5], sq[N - 1]);

    /* masked: filter by a local, by an expression evaluated in the region, if(false) */
    int f = 0, who = -1, last = -1, serial = -1;
#pragma omp parallel masked filter(f) num_threads(3)
    who = omp_get_thread_num();
#pragma omp parallel masked filter(omp_get_num_threads() - 1)
    last = omp_get_thread_num() == omp_get_num_threads() - 1;
#pragma omp parallel masked if(n > 1000) filter(0)
    serial = omp_get_num_threads();
    printf("who=%d last=%d serial=%d\n", who, last, serial);

    /* copyin: the master's threadprivate copy is what sequential code sees afterwards */
    int seen = 0;
#pragma omp parallel master copyin(tp) shared(seen)
    {
        seen = tp;
        tp = 9;
    }
    printf("seen=%d tp=%d\n", seen, tp);
    return 0;
}
