/* flush, taskwait and taskyield: accepted, no effect on the result */
#include <stdio.h>

#define N 300
int a[N];
int ready;

int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; i++) {
            a[i] = i * 5;
#pragma omp taskyield
        }
#pragma omp flush
#pragma omp flush(ready)
#pragma omp taskwait
#pragma omp single
        ready = a[N - 1];
    }
#pragma omp flush
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 3 + a[i];
    printf("ready=%d h=%ld\n", ready, h);
    return 0;
}
