#include <stdlib.h>
#include <string.h>

struct list
{
    char *name;
    double *data;
};

double *rows[16];

int main(void)
{
    struct list *l = malloc(sizeof *l);
    double *last = 0;
    double *one = 0;
    double **table = malloc(16 * sizeof *table);
#pragma omp parallel for lastprivate(last) firstprivate(table)
    for (int i = 0; i < 16; i++)
    {
        rows[i] = (double *)malloc(8 * sizeof(double));
        double *p = calloc(8, sizeof(double));
        double *q = p;
        table[i] = q;
        last = malloc(8);
        posix_memalign((void **)&rows[i], 64, 64);
        free(p);
    }
#pragma omp parallel
    {
        l->name = strdup("x");
        one = realloc(one, 16);
        double *scratch = malloc(64);
        free(scratch);
#pragma omp single
        l->data = malloc(64);
    }
    return 0;
}
