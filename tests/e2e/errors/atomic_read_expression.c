/* `atomic read` of an expression, not of an lvalue: gcc refuses it (it is not read plainly) */
// expect-error: 13
#include <stdio.h>

int x = 3;

int main(void)
{
    int v = 0;
#pragma omp parallel
    {
#pragma omp atomic read
        v = x + 1;
    }
    printf("%d\n", v);
    return 0;
}
