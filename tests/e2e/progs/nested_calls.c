/* the loop body calls functions: recursion, writes through pointers to
 * globals, a function pointer table */
#include <stdio.h>

long fibs[40];
int squares[40];

static long fib(int k)
{
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

static void store_square(int *where, int v)
{
    *where = v * v;
}

static int twice(int x) { return 2 * x; }
static int negate(int x) { return -x; }
static int (*const ops[2])(int) = {twice, negate};

int main(void)
{
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 25; i++) {
        fibs[i] = fib(i);
        store_square(&squares[i], ops[i % 2](i));
    }
    long s = 0;
    for (int i = 0; i < 25; i++)
        s += fibs[i] + squares[i];
    printf("s=%ld fib24=%ld sq23=%d\n", s, fibs[24], squares[23]);
    return 0;
}
