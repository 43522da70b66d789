/* General critical sections whose bodies call functions: a user function that pushes onto a
   shared list (and calls another user function), a recursive function, C library calls that
   write shared buffers (memcpy, memmove, memset, strcpy, strcat, sprintf, snprintf, sscanf,
   qsort with a comparator defined here), a function with a `static` local (it reports its
   stores itself) and a lock pair calling a helper. Output is
   independent of the order in which threads take the lock: lists and buffers are printed
   sorted or as order-independent sums. */
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_lock_t;
static void omp_init_lock(omp_lock_t *l) { *l = 0; }
static void omp_set_lock(omp_lock_t *l) { ++*l; }
static void omp_unset_lock(omp_lock_t *l) { --*l; }
static void omp_destroy_lock(omp_lock_t *l) { *l = 0; }
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    int value;
    struct node *next;
};

struct node *head;
int pushed, depth_total, calls;
long fib_total;
char names[64][32];
int name_count;
int slots[64][4];
int sorted_sum[64];
int scanned[64][2];
char scanned_word[64][8];
double scanned_real[64];
int pool[256];
int pool_len;

static void count_call(void) { calls++; }

static int next_ticket(void)
{
    static int ticket;
    return ++ticket;
}
long ticket_sum;

static void push(int v)
{
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = head;
    head = n;
    pushed += 1;
    count_call();
}

static long fib(int n)
{
    depth_total++;
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void add_to_pool(int *values, int n)
{
    memcpy(&pool[pool_len], values, n * sizeof values[0]);
    pool_len += n;
}

static int cmp_int(const void *a, const void *b) { return by_value(a, b); }

int main(void)
{
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel for schedule(dynamic, 2)
    for (int i = 0; i < 64; i++) {
        int local[4] = {i, 3 * i % 7, 64 - i, i * i % 11};
#pragma omp critical(list)
        {
            push(i * 2);
            fib_total += fib(i % 12);
            int t = next_ticket();
            ticket_sum += t;
        }
#pragma omp critical
        {
            char tmp[32];
            int k = name_count++;
            sprintf(tmp, "n%02d", i);
            strcpy(names[k], tmp);
            strcat(names[k], "-x");
            snprintf(names[k] + strlen(names[k]), 4, "%d", i % 1000);
            memset(slots[i], 0, sizeof slots[i]);
            memmove(slots[i], local, sizeof local);
            qsort(slots[i], 4, sizeof(int), by_value);
            sorted_sum[i] = slots[i][0] * 1000 + slots[i][3];
            sscanf(tmp + 1, "%d", &scanned[i][0]);
            sscanf("7 word 2.5", "%d %7s %lf", &scanned[i][1], scanned_word[i], &scanned_real[i]);
        }
        omp_set_lock(&lock);
        add_to_pool(local, 2);
        omp_unset_lock(&lock);
    }
    omp_destroy_lock(&lock);

    int values[64], n = 0;
    for (struct node *p = head; p; p = p->next)
        values[n++] = p->value;
    qsort(values, n, sizeof values[0], cmp_int);
    long check = 0;
    for (int k = 0; k < n; k++)
        check = check * 31 + values[k];
    printf("list: %d nodes, pushed %d, calls %d, check %ld\n", n, pushed, calls, check);
    printf("fib total %ld, depth %d, tickets %ld, next %d\n", fib_total, depth_total, ticket_sum,
           next_ticket());
    qsort(names, name_count, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    for (int k = 0; k < name_count; k += 9)
        printf("name %d: %s\n", k, names[k]);
    long s = 0;
    for (int k = 0; k < 64; k++)
        s += sorted_sum[k] + scanned[k][0] * 3 + scanned[k][1] + (int)(scanned_real[k] * 2) +
             scanned_word[k][0];
    printf("slots %d %d %d %d; sums %ld\n", slots[5][0], slots[5][1], slots[5][2], slots[5][3], s);
    qsort(pool, pool_len, sizeof pool[0], cmp_int);
    long ps = 0;
    for (int k = 0; k < pool_len; k++)
        ps = ps * 7 + pool[k];
    printf("pool %d, check %ld\n", pool_len, ps);
    return 0;
}
