/* `task` is refused at compile time */
#include <stdio.h>

int main(void)
{
    int x = 0;
#pragma omp parallel
    {
#pragma omp single
        {
            // expect-error: 12
#pragma omp task shared(x)
            x = 1;
        }
    }
    printf("%d\n", x);
    return 0;
}
