/* A region nested in an outer region runs with a team of one. When only some threads of a
 * rank that runs several threads of the outer team reach it (inside `single`, a `section`,
 * `master`, a loop iteration; num_threads(3) above the rank count, OMP_NUM_THREADS=2 in the
 * .env file), its barriers, explicit or implied by `for`, `sections`, `single`, and its
 * `copyprivate`, `taskwait` and `taskgroup`, must not wait for the rank's other threads. */
#include <stdio.h>

static long inner(long seed)
{
    long s = seed, v = 0;
#pragma omp parallel shared(s, v)
    {
#pragma omp barrier
#pragma omp for reduction(+ : s)
        for (int i = 0; i < 10; i++)
            s += i;
#pragma omp sections reduction(+ : s)
        {
#pragma omp section
            s += 100;
#pragma omp section
            s += 1000;
        }
#pragma omp single
        s += 10000;
#pragma omp for nowait
        for (int i = 0; i < 4; i++)
            (void)i;
#pragma omp barrier
        long w = 0;
#pragma omp single copyprivate(w)
        w = s;
#pragma omp single
        {
#pragma omp task shared(s)
            s += 7;
#pragma omp taskwait
#pragma omp taskgroup
            {
#pragma omp task shared(s)
                s += 3;
            }
        }
#pragma omp taskwait
#pragma omp master
        v = w;
    }
    return s + v;
}

int main(void)
{
    long a = 0, b[2] = {0, 0}, c = 0, d = 0, wrong = 0, it[6] = {0};
#pragma omp parallel num_threads(3)
    {
#pragma omp single
        a = inner(1);
#pragma omp sections
        {
#pragma omp section
            b[0] = inner(2);
#pragma omp section
            b[1] = inner(3);
        }
#pragma omp master
        c = inner(4);
#pragma omp barrier
        long mine = inner(0);
#pragma omp atomic
        wrong += mine != 22300;
    }
    printf("single %ld sections %ld %ld master %ld, wrong on every thread %ld\n", a, b[0], b[1],
           c, wrong);

#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp parallel
            {
#pragma omp barrier
            }
            d = 1;
        }
    }
    printf("default team, single: %ld\n", d);

#pragma omp parallel for schedule(static, 1) num_threads(3)
    for (int i = 0; i < 6; i++)
        it[i] = inner(i);
    for (int i = 0; i < 6; i++)
        printf("%ld ", it[i]);
    printf("\n");
    return 0;
}
