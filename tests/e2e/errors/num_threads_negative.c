/* a num_threads clause whose value is negative at run time: one clear error naming the region
 * (libgomp runs out of memory there) */
// expect-runtime-error: num_threads_negative.c:12 has `num_threads(-3)`: the number of threads must be positive
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 5 ? atoi(argv[1]) : -3;
    int team = 0;
    printf("start\n");
#pragma omp parallel num_threads(n)
    {
#pragma omp master
        team = 1;
    }
    printf("%d\n", team);
    return 0;
}
