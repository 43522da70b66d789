/* write scopes on the stack: a region scans only the stack pages of the shared locals it
 * writes by name, and the whole shared stack when it writes through a pointer into it.
 * Every way a region writes a local of an enclosing function: by name (scalars, arrays,
 * struct members, parameters), clause write-backs (reduction, lastprivate, linear), a
 * private pointer to a local, a shared pointer to a local, a pointer parameter reaching the
 * caller's frame, an inner region writing the locals of an outer one that runs with a team
 * of one, and regions that write no local between sequential writes to locals (which the
 * next region that does write them must still see as their state at its start). */
#include <stdio.h>

struct pair {
    long a;
    double b[3];
};

static void through_parameter(long *dst, int n, int round)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        dst[i] += (long)i * round;
}

static double by_value(struct pair p, int n)
{
    /* a parameter is a local too */
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        if (i == n - 1)
            p.b[1] = i * 0.5;
    return p.b[1] + (double)p.a;
}

static long outer_inner(int n)
{
    long result = 0;
#pragma omp parallel if (0)
    {
        long mine[8] = {0};
        /* active: the outer region has a team of one */
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            mine[i] += i * 3;
        for (int k = 0; k < 8; k++)
            result += mine[k] * (k + 1);
    }
    return result;
}

int main(void)
{
    long small[5] = {0};
    double big[3000];
    struct pair p = {7, {0, 0, 0}};
    long count = 0, last = -1, stepped = 0;
    double sum = 0;
    long untouched[600];
    for (int i = 0; i < 3000; i++)
        big[i] = i;
    for (int i = 0; i < 600; i++)
        untouched[i] = i;

    for (int round = 1; round <= 3; round++) {
        /* by name: an array two pages long, a struct member, a scalar under a critical */
#pragma omp parallel for
        for (int i = 0; i < 3000; i++)
            big[i] = big[i] * 0.5 + round;
#pragma omp parallel for
        for (int i = 0; i < 3; i++) /* fewer iterations than ranks */
            p.b[i] += i + round;
#pragma omp parallel for
        for (int i = 0; i < 7; i++) {
#pragma omp critical
            count += round;
        }
        /* clause write-backs */
#pragma omp parallel for reduction(+ : sum) lastprivate(last)
        for (int i = 0; i < 97; i++) {
            sum += big[i];
            last = i * round;
        }
#pragma omp parallel for linear(stepped : 2)
        for (int i = 0; i < 11; i++) {
            big[2000 + i] += stepped;
            stepped += 2;
        }
        /* sequential writes to locals, then a region writing no local, then one that does */
        small[round % 5] = 100 * round;
        untouched[round * 7] = -round;
        static double g[64];
#pragma omp parallel for
        for (int i = 0; i < 64; i++)
            g[i] = i * round;
#pragma omp parallel for
        for (int i = 0; i < 5; i++)
            small[i] += i;
        /* a private pointer to a local, a shared pointer to a local */
#pragma omp parallel
        {
            long *q = &small[2];
#pragma omp single
            *q += 1000;
        }
        long *sp = untouched + 100;
#pragma omp parallel for
        for (int i = 0; i < 50; i++)
            sp[i] = sp[i] * 2 + round;
        through_parameter(small, 5, round);
        printf("round %d: g %.1f small %ld %ld %ld %ld %ld\n", round, g[63], small[0],
               small[1], small[2], small[3], small[4]);
    }
    long total = 0;
    for (int i = 0; i < 600; i++)
        total += untouched[i];
    double bigsum = 0;
    for (int i = 0; i < 3000; i++)
        bigsum += big[i];
    printf("big %.3f pair %ld %.1f %.1f %.1f count %ld\n", bigsum, p.a, p.b[0], p.b[1], p.b[2],
           count);
    printf("sum %.3f last %ld stepped %ld untouched %ld\n", sum, last, stepped, total);
    printf("by value %.2f outer/inner %ld\n", by_value(p, 10), outer_inner(8));
    return 0;
}
