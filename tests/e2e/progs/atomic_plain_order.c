/* A thread's plain stores to a variable it also updates with `atomic` or an update-form
 * `critical` in the same epoch keep their program order: a store after the updates wins and
 * later updates apply on top of it; a store before them is their base. Atomic updates of
 * other threads in other epochs still add up. */
#include <stdio.h>

#define N 16
int c[N], d[N], e[N], f[N], g[N], h[N], w[N];
int cnt = 0, seen = 0, base = 0, total = 0;
long mixed = 0;

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
#pragma omp atomic
        c[i] += 1;
        c[i] *= 10; /* after the update: wins */
        d[i] = 5;   /* before the update: its base */
#pragma omp atomic
        d[i] += 1;
#pragma omp critical
        e[i] += i;
        e[i] = e[i] * 3 + 1; /* between two updates */
#pragma omp critical
        e[i] += 2;
#pragma omp atomic
        f[i] -= 4;
        f[i] = 0;                 /* back to the value the epoch began with */
        g[i] = (int)(i * 7 + 3);  /* a plain store, then one that changes nothing */
#pragma omp atomic
        g[i] += 0;
#pragma omp atomic
        w[i] += 0.75 * i; /* an operand wider than the variable */
        w[i] = w[i] * 2 + 1;
#pragma omp atomic
        w[i] += 2.5;
    }
    int sc = 0, sd = 0, se = 0, sf = 0, sg = 0, sw = 0;
    for (int i = 0; i < N; i++) {
        sc += c[i];
        sd += d[i];
        se += e[i];
        sf += f[i];
        sg += g[i];
        sw += w[i];
    }
    printf("loop: c=%d d=%d e=%d f=%d g=%d w=%d\n", sc, sd, se, sf, sg, sw);

#pragma omp parallel
    {
#pragma omp atomic
        seen += 1;
#pragma omp single
        {
#pragma omp atomic
            cnt += 1;
            cnt += 1000;
        }
#pragma omp single
        {
            base = 40;
#pragma omp atomic
            base += 2;
        }
#pragma omp atomic
        total += 3;
#pragma omp barrier
#pragma omp single
        {
            total -= 3 * seen; /* every thread's update merged before this store */
#pragma omp atomic
            total += 7;
        }
    }
    printf("single: cnt=%d base=%d total=%d\n", cnt, base, total);
    /* every thread must see the values, not only the one that printed them */
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        h[i] = base * (i + 1) + cnt + total;
    int sh = 0;
    for (int i = 0; i < N; i++)
        sh += h[i];
    printf("seen by all: %d\n", sh);

#pragma omp parallel
#pragma omp single
    {
        for (int k = 0; k < 4; k++) {
#pragma omp task firstprivate(k)
            {
#pragma omp atomic
                mixed += k;
            }
        }
#pragma omp taskwait
#pragma omp task
        {
            mixed = mixed * 100;
#pragma omp atomic
            mixed += 1;
        }
    }
    printf("tasks: mixed=%ld\n", mixed);
    return 0;
}
