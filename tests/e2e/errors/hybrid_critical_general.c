// expect-runtime-error: a `critical` section or lock pair whose body is not a set of updates is not supported with several threads per rank yet
/* a general critical section (a read-modify-write sequence) in a team of more threads than
 * ranks (num_threads(4) on 2 ranks): its stores are recorded per thread, so it is refused
 * with one line instead of losing updates */
#include <stdio.h>

long counter;

int main(void)
{
#pragma omp parallel num_threads(4)
    {
        for (int i = 0; i < 10; i++) {
#pragma omp critical
            {
                long c = counter;
                c = c * 3 % 1000003 + 1;
                counter = c;
            }
        }
    }
    printf("counter=%ld\n", counter);
    return 0;
}
