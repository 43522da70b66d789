/* `threadprivate` of a local without `static` is invalid OpenMP: refused at the pragma */
#include <stdio.h>

int main(void)
{
    int calls = 0;
    // expect-error: 8
#pragma omp threadprivate(calls)
    calls++;
    printf("%d\n", calls);
    return 0;
}
