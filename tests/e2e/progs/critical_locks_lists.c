/* Lock pairs around any code inside a region (a simple lock and a nest lock set again inside
   its own pair), a block guarded by omp_test_lock (retried until it succeeds), and pushes onto a shared linked list with malloc inside a critical section
   and inside a lock pair. Every sum is independent of the order in which threads take the
   locks; the lists are printed sorted. */
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_lock_t, omp_nest_lock_t;
static void omp_init_lock(omp_lock_t *l) { *l = 0; }
static void omp_set_lock(omp_lock_t *l) { ++*l; }
static void omp_unset_lock(omp_lock_t *l) { --*l; }
static int omp_test_lock(omp_lock_t *l) { return *l ? 0 : ++*l; }
static void omp_destroy_lock(omp_lock_t *l) { *l = 0; }
#define omp_init_nest_lock omp_init_lock
#define omp_set_nest_lock omp_set_lock
#define omp_unset_nest_lock omp_unset_lock
#define omp_destroy_nest_lock omp_destroy_lock
#endif
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

struct node *head;
struct node *other;
int total, capped, depth_seen, tested;
long sum_sq;

static int cmp(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static void print_sorted(const char *what, struct node *list)
{
    int values[512], n = 0;
    for (struct node *p = list; p && n < 512; p = p->next)
        values[n++] = p->value;
    qsort(values, n, sizeof values[0], cmp);
    long check = 0;
    for (int k = 0; k < n; k++)
        check = check * 31 + values[k];
    printf("%s: %d nodes, first %d, last %d, check %ld\n", what, n, n ? values[0] : -1,
           n ? values[n - 1] : -1, check);
}

int main(void)
{
    omp_lock_t lock;
    omp_nest_lock_t nest;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);

#pragma omp parallel for schedule(dynamic, 3)
    for (int i = 0; i < 300; i++) {
#pragma omp critical(list)
        {
            struct node *n = malloc(sizeof *n);
            n->value = i * 3;
            n->next = head;
            head = n;
        }
        omp_set_lock(&lock);
        if (total < 100)
            capped++;
        total = total + 1;
        struct node *m = malloc(sizeof *m);
        m->value = i;
        m->next = other;
        other = m;
        omp_unset_lock(&lock);

        int done = 0;
        while (!done) {
            if (omp_test_lock(&lock)) {
                tested += i % 3;
                omp_unset_lock(&lock);
                done = 1;
            }
        }

        omp_set_nest_lock(&nest);
        sum_sq += (long)i * i;
        {
            omp_set_nest_lock(&nest);
            if (i % 7 == 0)
                depth_seen = depth_seen + 1;
            omp_unset_nest_lock(&nest);
        }
        omp_unset_nest_lock(&nest);
    }

    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    printf("total %d capped %d sum_sq %ld depth_seen %d tested %d\n", total, capped, sum_sq,
           depth_seen, tested);
    print_sorted("list", head);
    print_sorted("other", other);
    /* sequential code may free the nodes */
    while (head) {
        struct node *n = head->next;
        free(head);
        head = n;
    }
    return 0;
}
