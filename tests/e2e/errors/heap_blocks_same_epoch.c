// expect-runtime-error: allocated or freed heap memory in `single`/`master`/`masked` blocks between the same barriers
/* a `master` and a `masked` block of different threads both allocate with no barrier
 * between them: each rank changes the shared heap, and the two heaps cannot be merged */
#include <stdio.h>
#include <stdlib.h>

int *a, *b;

int main(void)
{
#pragma omp parallel
    {
#pragma omp master
        a = malloc(100 * sizeof *a);
#pragma omp masked filter(1)
        b = malloc(100 * sizeof *b);
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < 100; i++)
            a[i] = b[i] = i;
    }
    printf("%d %d\n", a[99], b[99]);
    return 0;
}
