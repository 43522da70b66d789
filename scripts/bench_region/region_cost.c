/* region_cost.c - the fixed cost of a parallel region (scripts/bench_region.sh).
 * usage: region_cost MIB PAGES REGIONS
 * Holds MIB MiB of touched heap that the regions do not write; runs REGIONS parallel regions,
 * each writing 64 bytes on each page of another array of PAGES pages (0: a region that
 * writes nothing).
 * Prints the median and the mean time of one region (omp_get_wtime around each region, the
 * first tenth not counted: warm-up) and a checksum of the heap. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s MIB PAGES REGIONS\n", argv[0]);
        return 2;
    }
    size_t mib = strtoul(argv[1], NULL, 10);
    long pages = atol(argv[2]);
    int regions = atoi(argv[3]);
    size_t len = mib << 20;
    size_t wlen = (size_t)(pages > 0 ? pages : 1) * 4096;
    unsigned char *ballast = malloc(len);
    unsigned char *heap = malloc(wlen);
    double *times = malloc(sizeof(double) * (size_t)regions);
    if (!ballast || !heap || !times) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    memset(ballast, 1, len);
    memset(heap, 1, wlen);
    for (int r = 0; r < regions; r++) {
        double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (long i = 0; i < pages; i++)
            memset(heap + (size_t)i * 4096 + (size_t)(r % 64) * 64, r + (int)i, 64);
        times[r] = omp_get_wtime() - t0;
    }
    int skip = regions / 10;
    double sum = 0;
    for (int r = skip; r < regions; r++)
        sum += times[r];
    qsort(times + skip, (size_t)(regions - skip), sizeof(double), cmp);
    unsigned long check = 0;
    for (size_t i = 0; i < wlen; i += 64)
        check = check * 31 + heap[i];
    for (size_t i = 0; i < len; i += 4096)
        check = check * 31 + ballast[i];
    printf("MiB %zu pages %ld regions %d median_us %.2f mean_us %.2f check %lu\n", mib, pages,
           regions - skip, 1e6 * times[skip + (regions - skip) / 2],
           1e6 * sum / (regions - skip), check);
    return 0;
}
