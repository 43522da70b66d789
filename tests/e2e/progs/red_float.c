/* reduction operators on float; contributions chosen so that every result is exact
 * and independent of how the iterations are split */
#include <stdio.h>

static void op0(int n)
{
    float r = 5;
#pragma omp parallel for reduction(+ : r)
    for (int i = 0; i < n; i++) {
        r += (float)(i % 7 - 3);
    }
    printf("%-3s n=%-2d %.6g\n", "+", n, (double)r);
}

static void op1(int n)
{
    float r = 5;
#pragma omp parallel for reduction(- : r)
    for (int i = 0; i < n; i++) {
        r -= (float)(i % 7 - 3);
    }
    printf("%-3s n=%-2d %.6g\n", "-", n, (double)r);
}

static void op2(int n)
{
    float r = 3;
#pragma omp parallel for reduction(* : r)
    for (int i = 0; i < n; i++) {
        r *= (float)(i % 11 == 4 ? 2 : 1);
    }
    printf("%-3s n=%-2d %.6g\n", "*", n, (double)r);
}

static void op3(int n)
{
    float r = 1;
#pragma omp parallel for reduction(&& : r)
    for (int i = 0; i < n; i++) {
        r = r && (float)(i + 1);
    }
    printf("%-3s n=%-2d %.6g\n", "&&", n, (double)r);
}

static void op4(int n)
{
    float r = 0;
#pragma omp parallel for reduction(|| : r)
    for (int i = 0; i < n; i++) {
        r = r || (float)(i == n - 1);
    }
    printf("%-3s n=%-2d %.6g\n", "||", n, (double)r);
}

static void op5(int n)
{
    float r = (float)-100;
#pragma omp parallel for reduction(max : r)
    for (int i = 0; i < n; i++) {
        if ((float)((i * 37) % 101 - 50) > r) r = (float)((i * 37) % 101 - 50);
    }
    printf("%-3s n=%-2d %.6g\n", "max", n, (double)r);
}

static void op6(int n)
{
    float r = (float)100;
#pragma omp parallel for reduction(min : r)
    for (int i = 0; i < n; i++) {
        if ((float)((i * 37) % 101 - 50) < r) r = (float)((i * 37) % 101 - 50);
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
