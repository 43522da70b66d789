/* heap blocks allocated inside `single` and stored in shared pointers: malloc, calloc,
 * realloc (growing, and large enough to claim more of the heap), posix_memalign, strdup;
 * filled by later parallel loops, read in sequential code, freed in sequential code and
 * inside a later `single` */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 5000
#define BIG (3 << 20) /* more than the heap has claimed so far */

double *data;
int *counts;
char *name;
long *aligned;
unsigned char *big;

int main(void)
{
#pragma omp parallel
    {
#pragma omp single
        {
            data = malloc(N * sizeof *data);
            counts = calloc(N, sizeof *counts);
            name = strdup("made inside single");
            if (posix_memalign((void **)&aligned, 64, N * sizeof *aligned) != 0)
                aligned = NULL;
        }
#pragma omp for
        for (int i = 0; i < N; i++) {
            data[i] = i * 0.5;
            counts[i] += i % 7;
            aligned[i] = (long)i * i;
        }
#pragma omp single
        {
            data = realloc(data, 2 * N * sizeof *data);
            big = malloc(BIG);
            name[0] = 'M';
        }
#pragma omp for
        for (int i = N; i < 2 * N; i++)
            data[i] = data[i - N] + 1.0;
#pragma omp for
        for (int i = 0; i < BIG; i++)
            big[i] = (unsigned char)(i * 7 + 3);
    }
    double s = 0;
    long c = 0, h = 0, b = 0;
    for (int i = 0; i < 2 * N; i++)
        s += data[i];
    for (int i = 0; i < N; i++)
        c += counts[i];
    for (int i = 0; i < N; i++)
        h = (h * 31 + aligned[i]) % 1000000007;
    for (int i = 0; i < BIG; i += 4093)
        b += big[i];
    printf("s=%.1f c=%ld h=%ld b=%ld name=%s aligned=%d\n", s, c, h, b, name,
           (int)((unsigned long)aligned % 64 == 0));

#pragma omp parallel
    {
#pragma omp single
        {
            free(counts);
            counts = NULL;
            free(big);
            big = NULL;
        }
    }
    free(data);
    free(name);
    free(aligned);

    /* the heap is still the same on every rank: a sequential allocation filled in parallel */
    int *after = malloc(N * sizeof *after);
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        after[i] = 3 * i + 1;
    long t = 0;
    for (int i = 0; i < N; i++)
        t += after[i];
    printf("t=%ld counts=%p big=%p\n", t, (void *)counts, (void *)big);
    free(after);
    return 0;
}
