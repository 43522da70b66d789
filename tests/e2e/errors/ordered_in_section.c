/* `ordered` closely nested in a `section` (gcc: "'ordered' region must be closely nested
   inside a loop region with an 'ordered' clause") */
#include <stdio.h>

int x, y;

int main(void)
{
#pragma omp parallel sections
    {
#pragma omp section
        // expect-error: 13
#pragma omp ordered
        x += 1;
#pragma omp section
        y += 2;
    }
    printf("%d %d\n", x, y);
    return 0;
}
