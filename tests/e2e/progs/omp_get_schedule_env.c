/* OMP_SCHEDULE as omp_get_schedule reports it (libgomp's values: the monotonic bit of a
   `monotonic:` kind, a chunk of 0 made 1; e2e: per-thread-count: it calls the OpenMP API) */
#include <stdio.h>
#include <omp.h>

int main(void)
{
    omp_sched_t kind;
    int chunk;
    long s = 0;
    omp_get_schedule(&kind, &chunk);
#pragma omp parallel for schedule(runtime) reduction(+ : s)
    for (int i = 0; i < 1000; i++)
        s += i % 7;
    printf("kind %d chunk %d, loop %ld\n", (int)kind, chunk, s);
    return 0;
}
