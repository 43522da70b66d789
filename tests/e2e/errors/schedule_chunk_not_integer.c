/* a floating chunk size (gcc: "expected integer expression") */
#include <stdio.h>

int a[100];

int main(void)
{
    // expect-error: 9
#pragma omp parallel for schedule(static, 2.5)
    for (int i = 0; i < 100; i++)
        a[i] = i;
    printf("%d\n", a[99]);
    return 0;
}
