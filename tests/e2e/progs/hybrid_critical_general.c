/* General critical sections and lock pairs in teams of more threads than ranks
 * (num_threads(4); OMP_NUM_THREADS threads per rank): the threads of a rank exclude each
 * other and the other ranks' threads, and every section's stores reach the join, also when a
 * rank passes the lock from one of its threads to the next. A read-modify-write that is not
 * an update, a maximum with its index, pushes onto a shared list with malloc inside, a lock
 * pair, nested sections of different names and a nest lock set again inside its pair. Every
 * result is independent of the order in which threads take the locks.
 * e2e: per-thread-count (the default team's size is printed) */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

long counter;
struct node *head;
int best, best_at, nested, depth_seen;
long lock_sum;
double values[400];

int main(void)
{
    omp_lock_t lock;
    omp_nest_lock_t nest;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
    for (int i = 0; i < 400; i++)
        values[i] = (i * 37) % 401;

#pragma omp parallel num_threads(4)
    {
        for (int i = 0; i < 10; i++) {
#pragma omp critical
            {
                long c = counter;
                c = c * 3 % 1000003 + 1;
                counter = c;
            }
        }
    }
    printf("counter=%ld\n", counter);

#pragma omp parallel for num_threads(4) schedule(static, 7)
    for (int i = 0; i < 400; i++) {
#pragma omp critical(best)
        {
            if (values[i] > best || (values[i] == best && i < best_at)) {
                best = (int)values[i];
                best_at = i;
            }
#pragma omp critical(inner)
            nested = nested + 1;
        }
#pragma omp critical(list)
        {
            struct node *n = malloc(sizeof *n);
            n->value = i;
            n->next = head;
            head = n;
        }
        omp_set_lock(&lock);
        lock_sum = lock_sum + (long)i * i;
        omp_unset_lock(&lock);
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest);
        if (omp_test_nest_lock(&nest) > depth_seen)
            depth_seen = 3;
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
    }
    int n = 0;
    long check = 0;
    for (struct node *p = head; p; p = p->next) {
        n++;
        check += (long)p->value * (p->value % 13 + 1);
    }
    printf("best=%d at %d nested=%d\n", best, best_at, nested);
    printf("list: %d nodes, check %ld\n", n, check);
    printf("lock_sum=%ld depth=%d\n", lock_sum, depth_seen);

    /* the default team: R x T threads */
    long team_sum = 0;
    int team = 0;
#pragma omp parallel
    {
#pragma omp critical
        {
            long t = team_sum;
            team_sum = t + omp_get_thread_num() + 1;
            team = omp_get_num_threads();
        }
    }
    printf("team of %d: sum %ld (expected %d)\n", team, team_sum, team * (team + 1) / 2);
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    return 0;
}
