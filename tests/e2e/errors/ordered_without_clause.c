/* `#pragma omp ordered` in a loop without the `ordered` clause is refused at the pragma (as gcc does) */
#include <stdio.h>

int main(void)
{
    int last = 0;
#pragma omp parallel for
    for (int i = 0; i < 10; i++) {
        // expect-error: 10
#pragma omp ordered
        last = i;
    }
    printf("%d\n", last);
    return 0;
}
