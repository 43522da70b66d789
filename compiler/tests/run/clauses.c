/* Clause expressions that name locals (evaluated inside the outlined function), statements
 * without braces right before the next directive. Output must match gcc -fopenmp. */
#include <stdio.h>
#include <omp.h>

int a[100], b[100], marks[8], once;

/* orphaned single and sections: also called outside any region */
static void orphans(int k)
{
#pragma omp single
    once += k;
#pragma omp sections
    {
#pragma omp section
        marks[5] += k;
#pragma omp section
        marks[6] += 2 * k;
    }
}

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
    int fp = 7, sp1 = 0, sp2 = 0;
#pragma omp parallel sections firstprivate(fp)
    {
#pragma omp section
        sp1 = fp + 1;
#pragma omp section
        sp2 = fp + 2;
    }
#pragma omp parallel
    {
#pragma omp single firstprivate(fp)
        {
            fp *= 3;
            marks[4] = fp;
        }
        orphans(10);
    }
    orphans(1);
    printf("%d %d %d %d %d %d %d\n", fp, sp1, sp2, marks[4], once, marks[5], marks[6]);
    long t = 0;
    for (int i = 0; i < 100; i++)
        t += a[i] * 3 + b[i];
    printf("%ld %ld %d %d %d %d\n", s, t, marks[0], marks[1], marks[2], marks[3]);
    return 0;
}
