/* heap data: malloc, calloc, realloc, an array of row pointers, a linked list;
 * all allocated in sequential code and written in parallel loops */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    int value;
    struct node *next;
};

int main(void)
{
    int n = 1000;
    int *a = malloc(n * sizeof *a);
    double *b = calloc(n, sizeof *b);
    char **rows = malloc(20 * sizeof *rows);
    for (int r = 0; r < 20; r++)
        rows[r] = calloc(33, 1);
    struct node *nodes[50];
    struct node *head = NULL;
    for (int k = 0; k < 50; k++) {
        struct node *nd = malloc(sizeof *nd);
        nd->value = k;
        nd->next = head;
        head = nd;
        nodes[k] = nd;
    }

#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        a[i] = i * 3 - 7;
        b[i] = a[i] * 0.125;
    }
#pragma omp parallel for schedule(static, 1)
    for (int r = 0; r < 20; r++)
        for (int c = 0; c < 32; c++)
            rows[r][c] = (char)('a' + (r + c) % 26);
#pragma omp parallel for
    for (int k = 0; k < 50; k++)
        nodes[k]->value *= nodes[k]->value;

    a = realloc(a, 2 * n * sizeof *a);
    memset(a + n, 0, n * sizeof *a);
#pragma omp parallel for
    for (int i = n; i < 2 * n; i++)
        a[i] = a[i - n] + i;

    long s = 0;
    for (int i = 0; i < 2 * n; i++)
        s += a[i] * (i % 5);
    double bs = 0;
    for (int i = 0; i < n; i++)
        bs += b[i];
    unsigned long ls = 0;
    for (struct node *p = head; p; p = p->next)
        ls = ls * 3 + (unsigned long)p->value;
    printf("s=%ld bs=%.3f ls=%lu row7=%s\n", s, bs, ls, rows[7]);
    for (int r = 0; r < 20; r++)
        free(rows[r]);
    free(rows);
    free(a);
    free(b);
    return 0;
}
