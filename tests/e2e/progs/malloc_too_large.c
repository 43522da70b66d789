/* An allocation larger than the memory can hold returns NULL (with ENOMEM) and the program
   goes on with a smaller one, as with the C library's malloc; realloc keeps the old block. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    size_t huge = (size_t)1 << 46; /* 64 TiB */
    errno = 0;
    double *big = malloc(huge);
    printf("huge malloc: %s, ENOMEM %d\n", big ? "ok" : "NULL", errno == ENOMEM);
    errno = 0;
    double *zeroed = calloc(huge / 8, 8);
    printf("huge calloc: %s, ENOMEM %d\n", zeroed ? "ok" : "NULL", errno == ENOMEM);
    size_t n = 1000;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return 1;
#pragma omp parallel for
    for (size_t i = 0; i < n; i++)
        v[i] = 0.5 * (double)i;
    double *grown = realloc(v, huge);
    printf("huge realloc: %s\n", grown ? "ok" : "NULL");
    if (grown)
        v = grown;
    double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    printf("sum %.1f\n", sum);
    free(v);
    free(big);
    free(zeroed);
    return 0;
}
