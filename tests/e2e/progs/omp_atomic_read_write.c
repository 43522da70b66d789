/* atomic read and atomic write: one writer per element, reads of values published before
   the region, `x = x + 1` after the loop from single */
#include <stdio.h>

#define N 300
int src[N], dst[N];
int published;

int main(void)
{
    for (int i = 0; i < N; i++)
        src[i] = i * 3 + 1;
    published = 17;
#pragma omp parallel
    {
        int p;
#pragma omp atomic read
        p = published;
#pragma omp for
        for (int i = 0; i < N; i++) {
            int s;
#pragma omp atomic read
            s = src[i];
#pragma omp atomic write
            dst[i] = s + p;
        }
#pragma omp single
        {
#pragma omp atomic write
            published = dst[N - 1];
        }
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 11 + dst[i];
    printf("published=%d h=%ld\n", published, h);
    return 0;
}
