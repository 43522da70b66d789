// expect-runtime-error: write_unshared_memory.c:17 writes through the pointer `d` to
/* A parallel loop writes through a pointer to memory the ranks do not share (an anonymous
 * mmap here; a library built without capecc allocating likewise): every
 * rank would keep only its own iterations, so the run stops with one line that names the
 * region and the pointer. */
#include <stdio.h>
#include <sys/mman.h>

int main(void)
{
    int n = 1000;
    double *d = mmap(NULL, n * sizeof *d, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (d == MAP_FAILED)
        return 1;
    double s = 0;
    /* the region */
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        d[i] = i;
    for (int i = 0; i < n; i++)
        s += d[i];
    printf("%.1f\n", s);
    return 0;
}
