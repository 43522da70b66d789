/* the run-sched-var as omp_get_schedule reports it (libgomp's values: default dynamic,1,
   chunks below 1, the monotonic bit), and loops under schedule(runtime) that follow it
   (e2e: per-thread-count: the program calls the OpenMP API, which a build without OpenMP
   does not have) */
#include <stdio.h>
#include <omp.h>

static long run(int n)
{
    long s = 0;
#pragma omp parallel for schedule(runtime) reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += (long)i * i;
    return s;
}

static void show(const char *what)
{
    omp_sched_t kind;
    int chunk;
    omp_get_schedule(&kind, &chunk);
    printf("%s: kind %d chunk %d, loop %ld\n", what, (int)kind, chunk, run(1000));
}

int main(void)
{
    show("default");
    omp_set_schedule(omp_sched_dynamic, 0);
    show("dynamic,0");
    omp_set_schedule(omp_sched_guided, -3);
    show("guided,-3");
    omp_set_schedule(omp_sched_auto, 9);
    show("auto,9");
    omp_set_schedule(omp_sched_static, -1);
    show("static,-1");
    omp_set_schedule((omp_sched_t)(omp_sched_static | omp_sched_monotonic), 5);
    show("monotonic static,5");
    omp_set_schedule((omp_sched_t)(omp_sched_dynamic | omp_sched_monotonic), 3);
    show("monotonic dynamic,3");
    omp_set_schedule((omp_sched_t)7, 2);
    show("unknown kind");
#pragma omp parallel
    {
#pragma omp single
        show("in a region");
    }
    return 0;
}
