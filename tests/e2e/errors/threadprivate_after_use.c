/* `threadprivate` after the variable was used: gcc refuses it ("declared 'threadprivate' after
   first use"); the earlier code would have used the shared variable */
#include <stdio.h>

int counter;
static void bump(void) { counter++; }
// expect-error: 8
#pragma omp threadprivate(counter)

int main(void)
{
#pragma omp parallel
    bump();
    printf("%d\n", counter);
    return 0;
}
