/* a barrier as the statement of a `section` (gcc: "may only be used in compound statements") */
#include <stdio.h>

int x, y;

int main(void)
{
#pragma omp parallel sections
    {
#pragma omp section
        // expect-error: 12
#pragma omp barrier
        x = 1;
#pragma omp section
        y = 2;
    }
    printf("%d %d\n", x, y);
    return 0;
}
