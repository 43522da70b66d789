/* Clause expressions that name locals (evaluated inside the outlined function), statements
 * without braces right before the next directive. Output must match gcc -fopenmp. */
#include <stdio.h>
#include <omp.h>

int a[100], b[100], marks[8];

int main(void)
{
    int chunk = 3, filter = 2, nt = 1, on = 1;
    long s = 0;
#pragma omp parallel for schedule(static, chunk * 2 + 1)
    for (int i = 0; i < 100; i++)
        if (i % 3 != 2)
            a[i] = i;
#pragma omp parallel for schedule(dynamic, chunk) reduction(+:s) if(on)
    for (int i = 0; i < 100; i++)
        if (a[i])
            s += a[i];
#pragma omp parallel
    {
#pragma omp for schedule(guided, chunk + 1)
        for (int i = 0; i < 100; i++)
            if (i & 1)
                b[i] = 2 * i;
#pragma omp masked filter(filter)
        if (chunk)
            marks[0] = omp_get_thread_num();
#pragma omp sections
        {
            if (chunk > 1)
                marks[1] = 1;
#pragma omp section
            if (chunk > 2)
                marks[2] = 2;
        }
#pragma omp parallel num_threads(nt)
        {
#pragma omp atomic
            marks[3] += omp_get_num_threads();
        }
    }
    long t = 0;
    for (int i = 0; i < 100; i++)
        t += a[i] * 3 + b[i];
    printf("%ld %ld %d %d %d %d\n", s, t, marks[0], marks[1], marks[2], marks[3]);
    return 0;
}
