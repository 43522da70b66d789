/* many regions, each allocating a node in `single` (linked into a shared list), filling it
 * in a parallel loop and sometimes freeing an older node inside `single`: the heap stays
 * identical on every rank, so sequential allocations afterwards are shared correctly */
#include <stdio.h>
#include <stdlib.h>

#define M 64

struct node {
    int id;
    int *vals;
    struct node *next;
};

struct node *head;

int main(void)
{
    for (int r = 0; r < 120; r++) {
#pragma omp parallel
        {
#pragma omp single
            {
                struct node *nd = malloc(sizeof *nd);
                nd->id = r;
                nd->vals = malloc((M + r) * sizeof *nd->vals);
                nd->next = head;
                head = nd;
                if (r % 3 == 2 && head->next && head->next->next) {
                    struct node *old = head->next->next;
                    head->next->next = old->next;
                    free(old->vals);
                    free(old);
                }
            }
#pragma omp for
            for (int i = 0; i < M + r; i++)
                head->vals[i] = i * r;
        }
    }
    long s = 0;
    int count = 0;
    for (struct node *nd = head; nd; nd = nd->next, count++)
        for (int i = 0; i < M + nd->id; i++)
            s += nd->vals[i];
    printf("nodes=%d s=%ld\n", count, s);

    int *after = malloc(10000 * sizeof *after);
#pragma omp parallel for
    for (int i = 0; i < 10000; i++)
        after[i] = i % 13;
    long t = 0;
    for (int i = 0; i < 10000; i++)
        t += after[i];
    printf("t=%ld\n", t);
    return 0;
}
