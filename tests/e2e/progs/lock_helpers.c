/* Locks set and unset in different blocks inside a parallel region: helper functions
   acquire()/release() around a push onto a shared list, a set in the branches of an `if`
   with the unset after it, a set under a condition with the unset under the same condition,
   and a helper that takes the lock, updates and returns holding it. Output is independent of
   the order in which threads take the lock (sums, sorted lists). */
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_lock_t, omp_nest_lock_t;
static void omp_init_lock(omp_lock_t *l) { *l = 0; }
static void omp_set_lock(omp_lock_t *l) { ++*l; }
static void omp_unset_lock(omp_lock_t *l) { --*l; }
static void omp_destroy_lock(omp_lock_t *l) { *l = 0; }
#endif
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

omp_lock_t list_lock, count_lock;
struct node *head;
int total, evens, odds, guarded, entered;
long history[400];
int history_len;

static void acquire(omp_lock_t *l) { omp_set_lock(l); }
static void release(omp_lock_t *l) { omp_unset_lock(l); }

static void push(int v)
{
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = head;
    head = n;
}

/* returns holding count_lock */
static int enter_counted(void)
{
    acquire(&count_lock);
    return ++entered;
}

static int cmp(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    omp_init_lock(&list_lock);
    omp_init_lock(&count_lock);
#pragma omp parallel for schedule(dynamic, 3)
    for (int i = 0; i < 200; i++) {
        acquire(&list_lock);
        push(i);
        total += i;
        release(&list_lock);

        if (i % 2 == 0) {
            omp_set_lock(&count_lock);
            evens++;
        } else {
            omp_set_lock(&count_lock);
            odds++;
        }
        history[history_len++] = i;
        omp_unset_lock(&count_lock);

        int use_lock = i % 3 != 0;
        if (use_lock)
            omp_set_lock(&list_lock);
        if (use_lock)
            guarded += i;
        if (use_lock)
            omp_unset_lock(&list_lock);

        int k = enter_counted();
        history[history_len++] = 1000 + i;
        release(&count_lock);
        (void)k;
    }
    omp_destroy_lock(&list_lock);
    omp_destroy_lock(&count_lock);

    long values[400];
    int n = 0;
    long check = 0;
    for (struct node *p = head; p; p = p->next)
        values[n++] = p->value;
    qsort(values, n, sizeof values[0], cmp);
    for (int k = 0; k < n; k++)
        check = check * 31 + values[k];
    printf("list: %d nodes, total %d, check %ld\n", n, total, check);
    printf("evens %d, odds %d, guarded %d, entered %d\n", evens, odds, guarded, entered);
    qsort(history, history_len, sizeof history[0], cmp);
    check = 0;
    for (int k = 0; k < history_len; k++)
        check = check * 7 + history[k];
    printf("history %d, check %ld\n", history_len, check);
    return 0;
}
