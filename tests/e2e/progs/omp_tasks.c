/* tasks: parallel + single generating independent tasks (array and linked list), taskloop
   with grainsize / num_tasks, recursive divide and conquer with taskwait, depend chains,
   taskgroup, and the data environment of tasks (firstprivate by default for locals that are
   not shared in the enclosing context)
   e2e: openmp-only (the task's own copy of a region local, which the sequential program does not make) */
#include <stdio.h>
#include <stdlib.h>

#define N 200

struct node {
    int value;
    struct node *next;
};

long out[N], squares[N];
double chain[4];

static long fib(int n)
{
    long x, y;
    if (n < 2)
        return n;
#pragma omp task shared(x) firstprivate(n) final(n < 10) mergeable
    x = fib(n - 1);
#pragma omp task shared(y) untied
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(void)
{
    struct node *head = NULL;
    for (int i = N - 1; i >= 0; i--) {
        struct node *n = malloc(sizeof *n);
        n->value = i;
        n->next = head;
        head = n;
    }
    long list_total = 0, fib_result = 0;
    int shared_local = 5;
#pragma omp parallel
    {
#pragma omp single
        {
            for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i) priority(1)
                out[i] = (long)i * i;
            }
            for (struct node *p = head; p; p = p->next) {
#pragma omp task firstprivate(p)
                p->value *= 3;
            }
#pragma omp taskwait
            for (struct node *p = head; p; p = p->next)
                list_total += p->value;
#pragma omp taskgroup
            {
#pragma omp task shared(fib_result)
                fib_result = fib(20);
            }
#pragma omp task depend(out: chain[0])
            chain[0] = 1.5;
#pragma omp task depend(in: chain[0]) depend(out: chain[1])
            chain[1] = chain[0] * 2;
#pragma omp task depend(inout: chain[1]) if(0)
            chain[1] += 1;
#pragma omp task depend(in: chain[1]) depend(out: chain[2], chain[3])
            {
                chain[2] = chain[1] * chain[1];
                chain[3] = chain[2] - chain[0];
            }
            /* shared in the region (declared outside it): the task writes the original */
#pragma omp task
            shared_local = 99;
            /* a local of the region written by a task without a clause: the task's own copy */
            int mine = 5;
#pragma omp task
            mine = 42;
#pragma omp taskwait
            printf("mine %d\n", mine);
        }
#pragma omp single
#pragma omp taskloop grainsize(16)
        for (int i = 0; i < N; i++)
            squares[i] = out[i] + i;
#pragma omp single nowait
#pragma omp taskloop num_tasks(7) nogroup
        for (int i = 0; i < N; i += 2)
            squares[i] += 1;
    }
    long sum_out = 0, sum_sq = 0;
    for (int i = 0; i < N; i++) {
        sum_out += out[i];
        sum_sq += squares[i];
    }
    printf("out %ld squares %ld list %ld fib %ld\n", sum_out, sum_sq, list_total, fib_result);
    printf("chain %.2f %.2f %.2f %.2f shared_local %d\n", chain[0], chain[1], chain[2], chain[3],
           shared_local);
    while (head) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
    return 0;
}
