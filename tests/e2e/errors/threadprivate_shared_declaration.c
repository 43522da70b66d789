/* A threadprivate variable becomes thread-local, as gcc makes it; a variable declared in the
   same declaration that is not threadprivate would become thread-local too: refused there */
#include <stdio.h>

// expect-error: 6
int counter, total;
#pragma omp threadprivate(counter)

int main(void)
{
#pragma omp parallel
    counter++;
    total = counter;
    printf("%d\n", total);
    return 0;
}
