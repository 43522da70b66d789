/* a `loop` outside every OpenMP construct has no binding without `bind` (gcc refuses it too) */
#include <stdio.h>

int a[100];

int main(void)
{
    // expect-error: 9
#pragma omp loop
    for (int i = 0; i < 100; i++)
        a[i] = i;
    printf("%d\n", a[99]);
    return 0;
}
