/* `ordered` (clause and construct) is refused at compile time */
#include <stdio.h>

int main(void)
{
    int last = 0;
#pragma omp parallel for ordered
    for (int i = 0; i < 10; i++) {
        // expect-error: 10
#pragma omp ordered
        last = i;
    }
    printf("%d\n", last);
    return 0;
}
