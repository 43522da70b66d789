/* `ordered depend(...)` in a loop whose `ordered` clause has no argument (gcc: "'ordered'
   construct with 'depend' clause must be closely nested inside a loop with 'ordered' clause
   with a parameter") */
#include <stdio.h>

int a[64];

int main(void)
{
#pragma omp parallel for ordered
    for (int i = 1; i < 64; i++) {
        // expect-error: 13
#pragma omp ordered depend(sink: i - 1)
        a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
    }
    printf("%d\n", a[63]);
    return 0;
}
