/* Files the program writes itself (fopen "w"/"a") from parallel regions: a header from
 * sequential code, a body from `single`, `master`, `ordered` and `critical` blocks, a footer
 * from sequential code; lines from every thread of a `parallel for` (any order: counted and
 * summed, not compared); a large body written at once after the open (no rank may truncate
 * it late); each file read back right after its fclose by every thread of a reduction.
 * log.txt, big.txt and ordered.txt are compared byte for byte (file_written_in_regions.files);
 * log.txt has one `critical` line per thread (e2e: per-thread-count). */
#include <stdio.h>
#include <string.h>

static double x[100];
static int v[20000];

/* every thread sums the numbers of the file: all of it must be there at the fclose */
static void read_back(const char *name)
{
    FILE *f = fopen(name, "r");
    int n = 0, value;
    char word[64];
    while (n < 20000 && fscanf(f, "%63s", word) == 1)
        if (sscanf(word, "%d", &value) == 1)
            v[n++] = value;
    fclose(f);
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < n; i++)
        sum += v[i];
    long total = 0;
    int threads = 0;
#pragma omp parallel reduction(+ : total, threads)
    {
        /* each thread reads the whole file: none may read it before it is complete */
        FILE *g = fopen(name, "r");
        int k;
        char w[64];
        while (fscanf(g, "%63s", w) == 1)
            if (sscanf(w, "%d", &k) == 1)
                total += k;
        fclose(g);
        threads = 1;
    }
    printf("%s: %d numbers, sum %ld, every thread read %ld\n", name, n, sum,
           threads ? total / threads : 0);
}

int main(void)
{
    /* header, `single` body, `master` body, footer */
    FILE *log = fopen("log.txt", "w");
    fprintf(log, "# header\n");
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < 100; i++)
            x[i] = i * 0.5;
#pragma omp single
        for (int i = 0; i < 100; i++)
            fprintf(log, "x[%d] = %.1f\n", i, x[i]);
#pragma omp master
        fprintf(log, "master %ld\n", ftell(log));
#pragma omp barrier
#pragma omp critical
        fprintf(log, "critical\n");
    }
    fprintf(log, "# footer at %ld\n", ftell(log));
    printf("log fclose %d\n", fclose(log));
    log = fopen("log.txt", "a");
    printf("append at %ld\n", ftell(log));
    fprintf(log, "# appended\n");
    fclose(log);
    read_back("log.txt");

    /* a large body from `single` right after the open */
    FILE *big = fopen("big.txt", "w");
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < 20000; i++)
            fprintf(big, "%d\n", i);
    }
    fclose(big);
    read_back("big.txt");

    /* every thread's lines: any order */
    FILE *lines = fopen("lines.txt", "w");
    fputs("first\n", lines);
#pragma omp parallel for schedule(static, 3)
    for (int i = 0; i < 997; i++)
        fprintf(lines, "%d\n", i * 3);
    fputs("last\n", lines);
    fclose(lines);
    read_back("lines.txt");

    /* `ordered`: program order */
    FILE *ordered = fopen("ordered.txt", "w");
#pragma omp parallel for ordered schedule(dynamic, 2)
    for (int i = 0; i < 50; i++) {
        int square = i * i;
#pragma omp ordered
        fprintf(ordered, "%d %d\n", i, square);
    }
    fclose(ordered);
    read_back("ordered.txt");

    /* a file that cannot be opened: NULL and errno on every rank */
    FILE *none = fopen("no/such/dir/file.txt", "w");
    printf("missing directory: %s\n", none ? "opened" : "NULL");
    return 0;
}
