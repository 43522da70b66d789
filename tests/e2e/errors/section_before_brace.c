/* `#pragma omp section` with no statement after it (gcc: "expected expression before `}`") */
#include <stdio.h>

int x, y;

int main(void)
{
#pragma omp parallel sections
    {
        x = 1;
        // expect-error: 12
#pragma omp section
    }
    printf("%d %d\n", x, y);
    return 0;
}
