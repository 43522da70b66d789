/* a string literal as `num_threads` (gcc: "expected integer expression") */
#include <stdio.h>

int a[100];

int main(void)
{
    long s = 0;
    // expect-error: 10
#pragma omp parallel for reduction(+: s) num_threads("x")
    for (int i = 0; i < 100; i++) {
        a[i] = i;
        s += i;
    }
    printf("%ld\n", s);
    return 0;
}
