/* OpenMP 5.0's `loop` construct: inside `parallel` its iterations are shared like `for`;
   `bind(thread)` (and a `loop` in a construct other than `parallel`) runs them all on the thread;
   `parallel loop`, `teams loop` and `target teams loop` are the combined forms.
   e2e: per-thread-count (every thread runs the bind(thread) loop) */
#include <stdio.h>

#define N 600
double a[N], b[N];
int hits[N];

static void per_thread(int *mine)
{
    int k;
#pragma omp loop bind(thread)
    for (k = 0; k < 10; k++)
        *mine += k;
}

int main(void)
{
    int i;
    double sum = 0.0;
#pragma omp parallel loop
    for (i = 0; i < N; i++)
        a[i] = i * 0.25;
#pragma omp parallel
    {
#pragma omp loop reduction(+:sum) order(concurrent)
        for (int j = 0; j < N; j++) {
            b[j] = 2 * a[j];
            sum += b[j];
        }
#pragma omp loop bind(parallel) collapse(2)
        for (int j = 0; j < 20; j++)
            for (int k = 0; k < 30; k++)
                hits[j * 30 + k] += 1;
        int mine = 0;
        per_thread(&mine);
#pragma omp atomic
        hits[0] += mine;
    }
#pragma omp loop bind(thread)
    for (i = 0; i < N; i++)
        b[i] += 1;
#pragma omp teams loop
    for (i = 0; i < N; i++)
        a[i] += b[i];
#pragma omp target teams loop map(tofrom: hits)
    for (i = 0; i < N; i++)
        hits[i] += i % 3;
    long total = 0;
    for (i = 0; i < N; i++)
        total += hits[i];
    printf("sum=%.2f a=%.2f b=%.2f total=%ld\n", sum, a[N - 1], b[N - 1], total);
    return 0;
}
