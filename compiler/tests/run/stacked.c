/* (copy of tests/e2e/progs/omp_stacked_directives.c) directives stacked on one statement without braces: parallel + for, parallel + single,
   parallel + sections; the inner directive must not be lost */
#include <stdio.h>

#define N 300
int a[N];
long total;
int once;

int main(void)
{
    long s = 0;
#pragma omp parallel
#pragma omp for reduction(+ : s)
    for (int i = 0; i < N; i++) {
        a[i] = i % 23;
        s += a[i];
    }
#pragma omp parallel
#pragma omp single
    once += 1; /* exactly one thread: a lost `single` makes this P */
#pragma omp parallel
#pragma omp for
    for (int i = 0; i < N; i++) {
#pragma omp atomic
        total += a[i];
    }
    printf("s=%ld once=%d total=%ld\n", s, once, total);
    return 0;
}
