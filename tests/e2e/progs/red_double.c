/* reduction operators on double; contributions chosen so that every result is exact
 * and independent of how the iterations are split */
#include <stdio.h>

static void op0(int n)
{
    double r = 5;
#pragma omp parallel for reduction(+ : r)
    for (int i = 0; i < n; i++) {
        r += (double)(i % 7 - 3);
    }
    printf("%-3s n=%-2d %.6g\n", "+", n, (double)r);
}

static void op1(int n)
{
    double r = 5;
#pragma omp parallel for reduction(- : r)
    for (int i = 0; i < n; i++) {
        r -= (double)(i % 7 - 3);
    }
    printf("%-3s n=%-2d %.6g\n", "-", n, (double)r);
}

static void op2(int n)
{
    double r = 3;
#pragma omp parallel for reduction(* : r)
    for (int i = 0; i < n; i++) {
        r *= (double)(i % 11 == 4 ? 2 : 1);
    }
    printf("%-3s n=%-2d %.6g\n", "*", n, (double)r);
}

static void op3(int n)
{
    double r = 1;
#pragma omp parallel for reduction(&& : r)
    for (int i = 0; i < n; i++) {
        r = r && (double)(i + 1);
    }
    printf("%-3s n=%-2d %.6g\n", "&&", n, (double)r);
}

static void op4(int n)
{
    double r = 0;
#pragma omp parallel for reduction(|| : r)
    for (int i = 0; i < n; i++) {
        r = r || (double)(i == n - 1);
    }
    printf("%-3s n=%-2d %.6g\n", "||", n, (double)r);
}

static void op5(int n)
{
    double r = (double)-100;
#pragma omp parallel for reduction(max : r)
    for (int i = 0; i < n; i++) {
        if ((double)((i * 37) % 101 - 50) > r) r = (double)((i * 37) % 101 - 50);
    }
    printf("%-3s n=%-2d %.6g\n", "max", n, (double)r);
}

static void op6(int n)
{
    double r = (double)100;
#pragma omp parallel for reduction(min : r)
    for (int i = 0; i < n; i++) {
        if ((double)((i * 37) % 101 - 50) < r) r = (double)((i * 37) % 101 - 50);
    }
    printf("%-3s n=%-2d %.6g\n", "min", n, (double)r);
}

int main(void)
{
    int sizes[] = {37, 3, 1, 0};
    for (int s = 0; s < 4; s++) {
        op0(sizes[s]);
        op1(sizes[s]);
        op2(sizes[s]);
        op3(sizes[s]);
        op4(sizes[s]);
        op5(sizes[s]);
        op6(sizes[s]);
    }
    return 0;
}
