/* the exit status of main after a parallel loop reaches the caller */
#include <stdio.h>

int main(void)
{
    int bad = 0;
#pragma omp parallel for reduction(+ : bad)
    for (int i = 0; i < 100; i++)
        bad += i % 10 == 0;
    printf("bad=%d\n", bad);
    fflush(stdout);
    return bad == 10 ? 3 : 0;
}
