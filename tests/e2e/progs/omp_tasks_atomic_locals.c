/* tasks that update a local of the function creating them with `atomic` or an update-form
   `critical`: one task per item spread by a `single` adding into locals of `main`, and a
   recursive tree count whose two tasks add their subtrees into the caller's local, and more
   (a general `critical`, `taskloop`, `depend`); every
   rank's updates must be combined, not one task's value copied */
#include <stdio.h>
#include <stdlib.h>

typedef struct node {
    struct node *l, *r;
} node;

static node *build(int depth)
{
    if (!depth)
        return NULL;
    node *t = malloc(sizeof *t);
    t->l = build(depth - 1);
    t->r = build(depth - 1);
    return t;
}

static long count(node *t)
{
    if (!t)
        return 0;
    long c = 1;
#pragma omp task shared(c)
    {
        long x = count(t->l);
#pragma omp atomic
        c += x;
    }
#pragma omp task shared(c)
    {
        long y = count(t->r);
#pragma omp atomic
        c += y;
    }
#pragma omp taskwait
    return c;
}

/* the same with `critical` (which runs under the lock of the general unnamed section below) */
static long count_critical(node *t)
{
    if (!t)
        return 0;
    long c = 1;
#pragma omp task shared(c)
    {
        long x = count_critical(t->l);
#pragma omp critical
        c += x;
    }
#pragma omp task shared(c)
    {
        long y = count_critical(t->r);
#pragma omp critical
        c += y;
    }
#pragma omp taskwait
    return c;
}

/* a maximum with its index in a general `critical`, a sum in a `taskloop`, a store and an
   update of one local in tasks ordered by `depend` */
static int vals[64];

static long search(int lo, int hi)
{
    long best = -1, sum = 0, d = 0;
    int where = -1;
    for (int i = lo; i < hi; i += 8) {
#pragma omp task shared(best, where)
        for (int j = i; j < i + 8 && j < hi; j++) {
#pragma omp critical
            if (vals[j] > best || (vals[j] == best && j < where)) {
                best = vals[j];
                where = j;
            }
        }
    }
#pragma omp taskloop shared(sum) grainsize(4)
    for (int i = lo; i < hi; i++) {
#pragma omp atomic
        sum += vals[i];
    }
#pragma omp task shared(d) depend(out : d)
    d = 7;
#pragma omp task shared(d) depend(inout : d)
    {
#pragma omp atomic
        d += 3;
    }
#pragma omp taskwait
    return best * 100000 + where * 1000 + sum % 1000 + d * 1000000000L;
}

/* a maximum and a product through update forms, and a plain store beside updates in the
   same task */
static long extremes(int n)
{
    long best = -1, prod = 1, last = 0;
    for (int i = 1; i <= n; i++) {
#pragma omp task shared(best, prod)
        {
            long v = (i * 37) % 101;
#pragma omp critical
            if (v > best)
                best = v;
#pragma omp atomic
            prod *= (i % 3) + 1;
        }
    }
#pragma omp task shared(last)
    {
        last = 5;
#pragma omp atomic
        last += 2;
    }
#pragma omp taskwait
    return best * 1000000 + prod % 1000 * 1000 + last;
}

int main(void)
{
    long total = 0, cnt = 0;
    double weight = 0;
#pragma omp parallel
    {
#pragma omp single
        {
            for (int i = 0; i < 100; i++) {
#pragma omp task
                {
#pragma omp atomic
                    total += i;
#pragma omp critical
                    cnt += 1;
#pragma omp atomic update
                    weight += 0.5 * i;
                }
            }
#pragma omp taskwait
        }
    }
    printf("items: %ld %ld %.1f\n", total, cnt, weight);

    total = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 50; i++) {
#pragma omp task shared(total)
#pragma omp atomic
        total += 2 * i;
    }
    printf("no taskwait: %ld\n", total);

    node *root = build(10);
    long n = 0;
#pragma omp parallel
#pragma omp single
    n = count(root);
    printf("tree: %ld\n", n);
#pragma omp parallel
#pragma omp single
    n = count_critical(root);
    printf("tree (critical): %ld\n", n);

    long e = 0;
#pragma omp parallel
#pragma omp single
    e = extremes(40);
    printf("extremes: %ld\n", e);

    for (int i = 0; i < 64; i++)
        vals[i] = (i * 29) % 53;
    long s = 0;
#pragma omp parallel
#pragma omp single
    s = search(0, 64);
    printf("search: %ld\n", s);
    return 0;
}
