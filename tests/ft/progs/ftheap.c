/* Heap blocks allocated and freed inside `single` and `master` blocks of 200 parallel regions
 * (a shared linked list), filled by parallel loops; a checksum every 40 regions. With a file
 * `ftheap.stop` holding K in the working directory the program exits after region K, so that a
 * restart from its log replays K regions, with their allocations, and runs the rest. (A file,
 * not an environment variable: a restart must see the environment the log was written with.) */
#include <stdio.h>
#include <stdlib.h>

struct node {
    int id;
    int *vals;
    struct node *next;
};

struct node *head;
double *scratch;
char *big; /* 6 MiB from a master block of region 50: the heap grows inside a logged region */

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
    int stop = -1;
    FILE *f = fopen("ftheap.stop", "r");
    if (f) {
        if (fscanf(f, "%d", &stop) != 1)
            stop = -1;
        fclose(f);
    }
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
                if (r == 50)
                    big = malloc(6 << 20);
            }
#pragma omp barrier
#pragma omp for
            for (int i = 0; i < 1000 + 97 * r; i++)
                scratch[i] = i * 0.5;
            if (r == 50) {
#pragma omp for
                for (int i = 0; i < 6 << 20; i++)
                    big[i] = (char)(i % 97);
            }
        }
        if (r % 40 == 0)
            printf("region %d: checksum %ld scratch %.1f big %d\n", r, checksum(), scratch[999 + 97 * r],
                   big ? big[(6 << 20) - 1] + big[r * 1000] : -1);
        if (r == stop) {
            fflush(stdout);
            exit(3);
        }
    }
    return 0;
}
