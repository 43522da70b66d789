#include <stdio.h>

long fib(int n)
{
    long x, y;
    if (n < 2)
        return n;
#pragma omp task shared(x)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

long noisy(int n)
{
    long x;
    printf("%d\n", n);
#pragma omp task shared(x)
    x = n > 1 ? noisy(n - 1) : 0;
#pragma omp taskwait
    return x + n;
}

int main(void)
{
    long a = 0, b = 0;
#pragma omp parallel
    {
#pragma omp single
        a = fib(20);
#pragma omp single
        b = noisy(5);
    }
    printf("%ld %ld\n", a, b);
    return 0;
}
