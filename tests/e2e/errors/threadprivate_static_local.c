/* `threadprivate` of a static local is refused at compile time (file-scope variables work) */
#include <stdio.h>

static int bump(void)
{
    static int calls;
    // expect-error: 8
#pragma omp threadprivate(calls)
    return ++calls;
}

int main(void)
{
#pragma omp parallel
    bump();
    printf("%d\n", bump());
    return 0;
}
