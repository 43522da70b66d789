/* atomic update on array elements: a histogram, indices computed from the data */
#include <stdio.h>

#define N 5000
#define BINS 37
int data[N];
int hist[BINS];
long weighted[BINS];

int main(void)
{
    for (int i = 0; i < N; i++)
        data[i] = (int)((i * 2654435761u) >> 7) % 1000;
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
        int bin = data[i] % BINS;
#pragma omp atomic
        hist[bin]++;
#pragma omp atomic update
        weighted[bin] += data[i];
    }
    long h = 0;
    for (int b = 0; b < BINS; b++)
        h = h * 1000003 + hist[b] * 7 + weighted[b];
    printf("hist[0]=%d hist[%d]=%d weighted[3]=%ld h=%ld\n", hist[0], BINS - 1, hist[BINS - 1],
           weighted[3], h);
    return 0;
}
