/* a reduction identifier that no `declare reduction` before the directive defines is refused
   at compile time, at the identifier */
#include <stdio.h>

int main(void)
{
    double sum = 0;
    // expect-error: 9
#pragma omp parallel for reduction(kahan : sum)
    for (int i = 0; i < 100; i++)
        sum += 0.1 * i;
    printf("%f\n", sum);
    return 0;
}
