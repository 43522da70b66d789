/* a critical section whose effect is not a mergeable update is refused at compile time */
#include <stdio.h>

int total;
int order[64];

int main(void)
{
#pragma omp parallel
    {
        // expect-error: 14 (the statement that cannot be merged; the pragma is labelled too)
#pragma omp critical
        {
            order[total] = 1;
            total += 1;
        }
    }
    printf("%d\n", total);
    return 0;
}
