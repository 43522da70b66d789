/* e2e: openmp-only (the sequential program writes the originals).
 * names that shadow: a private loop-local with a global's name, a block
 * variable inside the loop, a parameter with a global's name */
#include <stdio.h>

int x = 5;
int result[50];
int offset = 100;

static void work(int offset, int n)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        int x = i * 2;          /* shadows the global x: private */
        {
            int x2 = x + offset; /* offset: the parameter, shared */
            result[i] = x2;
        }
    }
}

int main(void)
{
    int x_local = x;
    work(7, 50);
    int i;
#pragma omp parallel for private(x_local)
    for (i = 0; i < 50; i++) {
        x_local = result[i] + x;  /* x: the global, read only */
        result[i] = x_local + offset;
    }
    long s = 0;
    for (i = 0; i < 50; i++)
        s += result[i] * (i + 1);
    printf("x=%d x_local=%d s=%ld result[49]=%d\n", x, x_local, s, result[49]);
    return 0;
}
