/* a barrier in a function called from a worksharing loop (invisible to the compiler) stops the
   job with a clear error instead of waiting forever */
// expect-runtime-error: a barrier ran inside a worksharing construct
#include <stdio.h>

int a[100];

static void step(int i)
{
    a[i] = i;
#pragma omp barrier
}

int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < 100; i++)
            step(i);
    }
    printf("%d\n", a[99]);
    return 0;
}
