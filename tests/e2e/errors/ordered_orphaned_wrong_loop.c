/* an orphaned `ordered` construct reached from a loop without the `ordered` clause stops the
   program with a clear runtime error (libgomp would silently run it unordered) */
// expect-runtime-error: `#pragma omp ordered` ran inside a parallel region but not in a loop with the `ordered` clause
#include <stdio.h>

static int total;

static void step(int i)
{
#pragma omp ordered
    total += i;
}

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 10; i++)
        step(i);
    printf("%d\n", total);
    return 0;
}
