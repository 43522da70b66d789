/* `target` is refused at compile time */
#include <stdio.h>

int a[100];

int main(void)
{
    // expect-error: 9
#pragma omp target map(tofrom : a)
    for (int i = 0; i < 100; i++)
        a[i] = i;
    printf("%d\n", a[99]);
    return 0;
}
