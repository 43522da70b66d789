/* `break` out of a worksharing loop is invalid OpenMP: refused at the statement, as gcc does */
#include <stdio.h>

int a[100];

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        if (i == 50)
            // expect-error: 12
            break;
        a[i] = i;
    }
    printf("%d\n", a[99]);
    return 0;
}
