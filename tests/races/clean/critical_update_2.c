/* a shared counter updated in a critical section.
 * expect: no race */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
double total;
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
#pragma omp critical
        total += i;
    }
    printf("%g\n", total);
    return 0;
}
