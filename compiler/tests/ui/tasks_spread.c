/* a single that only creates tasks spreads them (__cape_task_single_begin); one that
   prints runs them all on one thread (__cape_single_begin) */
#include <stdio.h>
double a[64];
int main(void)
{
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < 64; i++) {
#pragma omp task firstprivate(i)
            a[i] = i * 2.0;
        }
#pragma omp single
        {
            printf("creating\n");
#pragma omp task
            a[0] += 1;
        }
    }
    printf("%f\n", a[0] + a[63]);
    return 0;
}
