/* a `!=` test with an increment other than 1 or -1 is invalid OpenMP (the loop may never reach
   its bound): refused at the increment, as gcc does */
#include <stdio.h>

int main(void)
{
    long n = 0;
#pragma omp parallel for reduction(+ : n)
    // expect-error: 10
    for (int i = 0; i != 99; i += 2)
        n++;
    printf("%ld\n", n);
    return 0;
}
