/* Shared helpers for the PolyBench/C 4.2-style kernels in this directory (written for
   capecc: PolyBench itself is not available offline). Each kernel is a single .c file that
   includes this header; checksums are computed sequentially so they do not depend on the
   number of threads. */
#ifndef CAPE_POLYBENCH_H
#define CAPE_POLYBENCH_H
#include <stdio.h>

#define DATA_TYPE double

/* sum and position-weighted sum of n values, printed with 10 significant digits */
static void print_checksum(const char *name, const DATA_TYPE *a, long n)
{
    double sum = 0, weighted = 0;
    for (long i = 0; i < n; i++) {
        sum += a[i];
        weighted += a[i] * (double)(i % 13 + 1);
    }
    printf("%s: n=%ld sum=%.10e weighted=%.10e\n", name, n, sum, weighted);
}
#endif
