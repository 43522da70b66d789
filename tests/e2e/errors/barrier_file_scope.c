/* an executable directive outside any function is refused at its line */
#include <stdio.h>

// expect-error: 5
#pragma omp barrier

int main(void)
{
    printf("1\n");
    return 0;
}
