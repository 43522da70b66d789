/* `return` out of a parallel region is invalid OpenMP: refused at the statement */
#include <stdio.h>

int a[100];

static void fill(void)
{
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        if (i >= 50)
            // expect-error: 12
            return;
        a[i] = 1;
    }
}

int main(void)
{
    fill();
    printf("%d\n", a[99]);
    return 0;
}
