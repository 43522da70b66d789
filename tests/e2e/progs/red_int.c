/* reduction operators on int; contributions chosen so that every result is exact
 * and independent of how the iterations are split */
#include <stdio.h>

static void op0(int n)
{
    int r = 5;
#pragma omp parallel for reduction(+ : r)
    for (int i = 0; i < n; i++) {
        r += (int)(i % 7 - 3);
    }
    printf("%-3s n=%-2d %lld\n", "+", n, (long long)r);
}

static void op1(int n)
{
    int r = 5;
#pragma omp parallel for reduction(- : r)
    for (int i = 0; i < n; i++) {
        r -= (int)(i % 7 - 3);
    }
    printf("%-3s n=%-2d %lld\n", "-", n, (long long)r);
}

static void op2(int n)
{
    int r = 3;
#pragma omp parallel for reduction(* : r)
    for (int i = 0; i < n; i++) {
        r *= (int)(i % 11 == 4 ? 2 : 1);
    }
    printf("%-3s n=%-2d %lld\n", "*", n, (long long)r);
}

static void op3(int n)
{
    int r = 1;
#pragma omp parallel for reduction(&& : r)
    for (int i = 0; i < n; i++) {
        r = r && (int)(i + 1);
    }
    printf("%-3s n=%-2d %lld\n", "&&", n, (long long)r);
}

static void op4(int n)
{
    int r = 0;
#pragma omp parallel for reduction(|| : r)
    for (int i = 0; i < n; i++) {
        r = r || (int)(i == n - 1);
    }
    printf("%-3s n=%-2d %lld\n", "||", n, (long long)r);
}

static void op5(int n)
{
    int r = (int)-100;
#pragma omp parallel for reduction(max : r)
    for (int i = 0; i < n; i++) {
        if ((int)((i * 37) % 101 - 50) > r) r = (int)((i * 37) % 101 - 50);
    }
    printf("%-3s n=%-2d %lld\n", "max", n, (long long)r);
}

static void op6(int n)
{
    int r = (int)100;
#pragma omp parallel for reduction(min : r)
    for (int i = 0; i < n; i++) {
        if ((int)((i * 37) % 101 - 50) < r) r = (int)((i * 37) % 101 - 50);
    }
    printf("%-3s n=%-2d %lld\n", "min", n, (long long)r);
}

static void op7(int n)
{
    int r = (int)~0;
#pragma omp parallel for reduction(& : r)
    for (int i = 0; i < n; i++) {
        r &= (int)~(1 << (i % 6));
    }
    printf("%-3s n=%-2d %lld\n", "&", n, (long long)r);
}

static void op8(int n)
{
    int r = (int)0x40;
#pragma omp parallel for reduction(| : r)
    for (int i = 0; i < n; i++) {
        r |= (int)(1 << (i % 5));
    }
    printf("%-3s n=%-2d %lld\n", "|", n, (long long)r);
}

static void op9(int n)
{
    int r = (int)0x5a;
#pragma omp parallel for reduction(^ : r)
    for (int i = 0; i < n; i++) {
        r ^= (int)(i * 37 + 11);
    }
    printf("%-3s n=%-2d %lld\n", "^", n, (long long)r);
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
        op7(sizes[s]);
        op8(sizes[s]);
        op9(sizes[s]);
    }
    return 0;
}
