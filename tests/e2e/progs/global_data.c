/* file-scope data: initialised (.data) and zero (.bss) globals, statics,
 * 2-D arrays, scalars written by one iteration */
#include <stdio.h>

int initialised[100] = {1, 2, 3};
static long zeroed[100];
double grid[30][40];
static float fscalar = 1.5f;
long long single;
const int factors[4] = {2, 3, 5, 7};

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        initialised[i] += i * factors[i % 4];
        zeroed[99 - i] = (long)i * i;
        if (i == 63) {
            single = 1234567890123LL;
            fscalar = 2.75f;
        }
    }
#pragma omp parallel for
    for (int r = 0; r < 30; r++)
        for (int c = 0; c < 40; c++)
            grid[r][c] = r * 100 + c + initialised[(r + c) % 100];
    unsigned long h = 0;
    for (int i = 0; i < 100; i++)
        h = h * 131 + (unsigned long)initialised[i] + (unsigned long)zeroed[i];
    double gs = 0;
    for (int r = 0; r < 30; r++)
        for (int c = 0; c < 40; c++)
            gs += grid[r][c];
    printf("hash=%lu gs=%.1f single=%lld fscalar=%.2f\n", h, gs, single, fscalar);
    return 0;
}
