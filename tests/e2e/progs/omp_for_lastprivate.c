/* lastprivate on `for` inside `parallel` (also with firstprivate on the same variable) */
#include <stdio.h>

#define N 123
int a[N];

int main(void)
{
    int last = -1, k = 10;
    double d = 0;
#pragma omp parallel
    {
#pragma omp for lastprivate(last, d)
        for (int i = 0; i < N; i++) {
            last = i * 2;
            d = i / 4.0;
            a[i] = last;
        }
#pragma omp for firstprivate(k) lastprivate(k) schedule(static, 5)
        for (int i = 0; i < N; i++) {
            a[i] += k * i; /* k is still the firstprivate 10 here */
            if (i == N - 1)
                k += 5;
        }
    }
    long h = 0;
    for (int i = 0; i < N; i++)
        h = h * 3 + a[i];
    printf("last=%d d=%.2f k=%d h=%ld\n", last, d, k, h);
    return 0;
}
