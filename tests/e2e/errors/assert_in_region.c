/* a failing assert inside a region names the user's function, as with gcc -fopenmp
   (not the outlined function capecc makes of the region) */
#include <assert.h>
#include <stdio.h>

// expect-runtime-error: check_all: Assertion `n < 0' failed
static void check_all(int n)
{
#pragma omp parallel
    assert(n < 0);
}

int main(void)
{
    check_all(4);
    printf("unreachable\n");
    return 0;
}
