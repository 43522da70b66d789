/* Heap blocks allocated and freed inside `single` and `master` blocks of 200 parallel regions
 * (a shared linked list), filled by parallel loops; a checksum every 40 regions. With
 * FTHEAP_STOP=K in the environment the program exits after region K, so that a restart from
 * its log replays K regions, with their allocations, and runs the rest. */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int id;
    int *vals;
    struct node *next;
};

struct node *head;
double *scratch;

static long checksum(void)
{
    long s = 0;
    for (struct node *nd = head; nd; nd = nd->next)
        for (int i = 0; i < 32 + nd->id % 50; i++)
            s += nd->vals[i] % 1000;
    return s;
}

int main(void)
{
    const char *stop_env = getenv("FTHEAP_STOP");
    int stop = stop_env ? atoi(stop_env) : -1;
    for (int r = 1; r <= 200; r++) {
#pragma omp parallel
        {
#pragma omp single
            {
                struct node *nd = malloc(sizeof *nd);
                nd->id = r;
                nd->vals = calloc(32 + r % 50, sizeof *nd->vals);
                nd->next = head;
                head = nd;
                if (r % 4 == 0) {
                    struct node *old = head->next->next;
                    head->next->next = old->next;
                    free(old->vals);
                    free(old);
                }
            }
#pragma omp for
            for (int i = 0; i < 32 + r % 50; i++)
                head->vals[i] = i * r + (head->next ? head->next->vals[0] : 0);
#pragma omp master
            {
                free(scratch);
                scratch = malloc((1000 + 97 * r) * sizeof *scratch);
            }
#pragma omp barrier
#pragma omp for
            for (int i = 0; i < 1000 + 97 * r; i++)
                scratch[i] = i * 0.5;
        }
        if (r % 40 == 0)
            printf("region %d: checksum %ld scratch %.1f\n", r, checksum(), scratch[999 + 97 * r]);
        if (r == stop) {
            fflush(stdout);
            exit(3);
        }
    }
    return 0;
}
