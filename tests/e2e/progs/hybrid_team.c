/* Teams larger than the rank count (num_threads(10), OMP_NUM_THREADS threads per rank):
 * the team has the requested size, thread numbers split a static loop as with gcc, and
 * the constructs among threads of one rank (atomic, critical, reduction, single with
 * copyprivate, master, barrier, firstprivate+lastprivate, dynamic loops) give gcc's result.
 * e2e: per-thread-count (the team size is printed) */
#include <stdio.h>
#include <omp.h>

#define N 1000
int owner[N];
long hist[16];

int main(void)
{
    int size = 0, count = 0, k = 7, team = 0;
    long sum = 0;
#pragma omp parallel num_threads(10) reduction(+ : count)
    {
        count += 1;
#pragma omp single
        size = omp_get_num_threads();
    }
    printf("num_threads(10): team=%d counted=%d\n", size, count);

#pragma omp parallel
    {
        int seed = 0;
#pragma omp master
        team = omp_get_num_threads();
#pragma omp barrier
#pragma omp for schedule(static)
        for (int i = 0; i < N; i++)
            owner[i] = omp_get_thread_num();
#pragma omp single copyprivate(seed)
        seed = 40 + omp_get_num_threads();
#pragma omp atomic
        sum += seed;
#pragma omp critical
        hist[omp_get_thread_num() % 16] += 2;
#pragma omp master
        hist[15] += 100;
#pragma omp barrier
#pragma omp for schedule(dynamic, 3) reduction(+ : count)
        for (int i = 0; i < N; i++)
            count += owner[i] == owner[N - 1 - i];
#pragma omp for firstprivate(k) lastprivate(k)
        for (int i = 0; i < N; i++)
            if (i == N - 1)
                k += owner[i];
    }
    printf("team=%d k=%d\n", team, k);
    long h = 0, o = 0;
    for (int i = 0; i < 16; i++)
        h = h * 3 + hist[i];
    for (int i = 0; i < N; i++)
        o = o * 7 + owner[i];
    printf("sum=%ld count=%d hist=%ld owners=%ld\n", sum, count, h, o);
    return 0;
}
