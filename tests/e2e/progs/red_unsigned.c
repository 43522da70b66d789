/* reduction operators on unsigned; contributions chosen so that every result is exact
 * and independent of how the iterations are split */
#include <stdio.h>

static void op0(int n)
{
    unsigned r = 5;
#pragma omp parallel for reduction(+ : r)
    for (int i = 0; i < n; i++) {
        r += (unsigned)(i % 7);
    }
    printf("%-3s n=%-2d %llu\n", "+", n, (unsigned long long)r);
}

static void op1(int n)
{
    unsigned r = 5;
#pragma omp parallel for reduction(- : r)
    for (int i = 0; i < n; i++) {
        r -= (unsigned)(i % 7);
    }
    printf("%-3s n=%-2d %llu\n", "-", n, (unsigned long long)r);
}

static void op2(int n)
{
    unsigned r = 3;
#pragma omp parallel for reduction(* : r)
    for (int i = 0; i < n; i++) {
        r *= (unsigned)(i % 5 + 1);
    }
    printf("%-3s n=%-2d %llu\n", "*", n, (unsigned long long)r);
}

static void op3(int n)
{
    unsigned r = 1;
#pragma omp parallel for reduction(&& : r)
    for (int i = 0; i < n; i++) {
        r = r && (unsigned)(i + 1);
    }
    printf("%-3s n=%-2d %llu\n", "&&", n, (unsigned long long)r);
}

static void op4(int n)
{
    unsigned r = 0;
#pragma omp parallel for reduction(|| : r)
    for (int i = 0; i < n; i++) {
        r = r || (unsigned)(i == n - 1);
    }
    printf("%-3s n=%-2d %llu\n", "||", n, (unsigned long long)r);
}

static void op5(int n)
{
    unsigned r = 0;
#pragma omp parallel for reduction(max : r)
    for (int i = 0; i < n; i++) {
        if ((unsigned)((i * 37u) % 101u) > r) r = (unsigned)((i * 37u) % 101u);
    }
    printf("%-3s n=%-2d %llu\n", "max", n, (unsigned long long)r);
}

static void op6(int n)
{
    unsigned r = (unsigned)100;
#pragma omp parallel for reduction(min : r)
    for (int i = 0; i < n; i++) {
        if ((unsigned)((i * 37u) % 101u) < r) r = (unsigned)((i * 37u) % 101u);
    }
    printf("%-3s n=%-2d %llu\n", "min", n, (unsigned long long)r);
}

static void op7(int n)
{
    unsigned r = (unsigned)~0;
#pragma omp parallel for reduction(& : r)
    for (int i = 0; i < n; i++) {
        r &= (unsigned)~(1 << (i % 6));
    }
    printf("%-3s n=%-2d %llu\n", "&", n, (unsigned long long)r);
}

static void op8(int n)
{
    unsigned r = (unsigned)0x40;
#pragma omp parallel for reduction(| : r)
    for (int i = 0; i < n; i++) {
        r |= (unsigned)(1 << (i % 5));
    }
    printf("%-3s n=%-2d %llu\n", "|", n, (unsigned long long)r);
}

static void op9(int n)
{
    unsigned r = (unsigned)0x5a;
#pragma omp parallel for reduction(^ : r)
    for (int i = 0; i < n; i++) {
        r ^= (unsigned)(i * 37 + 11);
    }
    printf("%-3s n=%-2d %llu\n", "^", n, (unsigned long long)r);
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
