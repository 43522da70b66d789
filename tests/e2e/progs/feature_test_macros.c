/* A feature-test macro at the top of the file enables declarations the program relies on:
 * GNU functions returning pointers (an implicit declaration would truncate them to int) and
 * the X/Open drand48 family (returning double). The translated file must see the macro
 * before any libc header, as the program does. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double x[1000];

int main(void)
{
    char *buf = malloc(64);
    strcpy(buf, "Hello OpenMP World");
    char *p = strcasestr(buf, "openmp");
    char *q = mempcpy(buf + 32, "xyz", 3);
    *q = 0;
    srand48(7);
    for (int i = 0; i < 1000; i++)
        x[i] = drand48();
    int n = 0, above = 0;
#pragma omp parallel for reduction(+: n, above)
    for (int i = 0; i < 1000; i++) {
        if (i < 18)
            n += buf[i] == 'o';
        above += x[i] > 0.5;
    }
    printf("%s|%s|n=%d above=%d x0=%.6f\n", p, buf + 32, n, above, x[0]);
    free(buf);
    return 0;
}
