/* an update inside critical that does not commute (x = 10 - x) is refused at compile time */
#include <stdio.h>

int x = 1;

int main(void)
{
#pragma omp parallel
    {
        // expect-error: 12 (the update; the pragma is labelled too)
#pragma omp critical
        x = 10 - x;
    }
    printf("%d\n", x);
    return 0;
}
