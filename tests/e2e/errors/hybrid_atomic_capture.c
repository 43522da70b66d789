// expect-runtime-error: `#pragma omp atomic capture` is not supported with several threads per rank yet
/* atomic capture in a team of more threads than ranks (num_threads(4) on 2 ranks): not
 * supported yet, refused with one line instead of a wrong ticket */
#include <stdio.h>

int next;

int main(void)
{
    int seen = 0;
#pragma omp parallel num_threads(4) reduction(+ : seen)
    {
        int mine;
#pragma omp atomic capture
        mine = next++;
        seen += mine >= 0;
    }
    printf("next=%d seen=%d\n", next, seen);
    return 0;
}
