/* single: one thread initialises what the others then read (implicit barrier), single
   nowait followed by an explicit barrier, printing from single */
#include <stdio.h>

#define N 400
int table[N], out[N];
int scale, offset;

int main(void)
{
#pragma omp parallel
    {
#pragma omp single
        {
            scale = 3;
            for (int i = 0; i < N; i++)
                table[i] = (i * 11) % 97;
            printf("single ran once\n");
        }
#pragma omp for
        for (int i = 0; i < N; i++)
            out[i] = table[i] * scale;
#pragma omp single nowait
        offset = 1000;
#pragma omp barrier
#pragma omp for
        for (int i = 0; i < N; i++)
            out[i] += offset;
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 13 + out[i];
    printf("h=%ld out[5]=%d\n", h, out[5]);
    return 0;
}
