/* a barrier closely nested in a worksharing loop is invalid OpenMP (not every thread reaches
   it): refused at the pragma, as gcc does, instead of a job that waits forever */
#include <stdio.h>

int a[100];

int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < 100; i++) {
            a[i] = i;
            // expect-error: 15
#pragma omp barrier
        }
    }
    printf("%d\n", a[99]);
    return 0;
}
