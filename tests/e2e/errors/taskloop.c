/* `taskloop` is refused at compile time */
#include <stdio.h>

int a[100];

int main(void)
{
#pragma omp parallel
#pragma omp single
    {
        // expect-error: 12
#pragma omp taskloop
        for (int i = 0; i < 100; i++)
            a[i] = i;
    }
    printf("%d\n", a[99]);
    return 0;
}
