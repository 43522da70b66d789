#include <stdio.h>
#include <string.h>
#include <omp.h>
struct node { int v; struct node *next; };
struct node nodes[8], *head;
char label[32];
int depth;
omp_lock_t lock;
static void push(struct node *n) { n->next = head; head = n; }
static int walk(int k) { depth++; return k ? walk(k - 1) : 0; }
static void acquire(void) { omp_set_lock(&lock); }
static void release(void) { omp_unset_lock(&lock); }
int main(void)
{
    omp_init_lock(&lock);
#pragma omp parallel for
    for (int i = 0; i < 8; i++) {
#pragma omp critical
        {
            push(&nodes[i]);
            walk(i);
            strcpy(label, "node");
        }
        acquire();
        nodes[i].v = i;
        release();
    }
    printf("%d %s\n", depth, label);
    return 0;
}
