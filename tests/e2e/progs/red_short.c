/* reduction operators on short; contributions chosen so that every result is exact
 * and independent of how the iterations are split */
#include <stdio.h>

static void op0(int n)
{
    short r = 5;
#pragma omp parallel for reduction(+ : r)
    for (int i = 0; i < n; i++) {
        r += (short)(i % 7 - 3);
    }
    printf("%-3s n=%-2d %d\n", "+", n, (int)r);
}

static void op1(int n)
{
    short r = 5;
#pragma omp parallel for reduction(- : r)
    for (int i = 0; i < n; i++) {
        r -= (short)(i % 7 - 3);
    }
    printf("%-3s n=%-2d %d\n", "-", n, (int)r);
}

static void op2(int n)
{
    short r = 3;
#pragma omp parallel for reduction(* : r)
    for (int i = 0; i < n; i++) {
        r *= (short)(i % 11 == 4 ? 2 : 1);
    }
    printf("%-3s n=%-2d %d\n", "*", n, (int)r);
}

static void op3(int n)
{
    short r = 1;
#pragma omp parallel for reduction(&& : r)
    for (int i = 0; i < n; i++) {
        r = r && (short)(i + 1);
    }
    printf("%-3s n=%-2d %d\n", "&&", n, (int)r);
}

static void op4(int n)
{
    short r = 0;
#pragma omp parallel for reduction(|| : r)
    for (int i = 0; i < n; i++) {
        r = r || (short)(i == n - 1);
    }
    printf("%-3s n=%-2d %d\n", "||", n, (int)r);
}

static void op5(int n)
{
    short r = (short)-100;
#pragma omp parallel for reduction(max : r)
    for (int i = 0; i < n; i++) {
        if ((short)((i * 37) % 101 - 50) > r) r = (short)((i * 37) % 101 - 50);
    }
    printf("%-3s n=%-2d %d\n", "max", n, (int)r);
}

static void op6(int n)
{
    short r = (short)100;
#pragma omp parallel for reduction(min : r)
    for (int i = 0; i < n; i++) {
        if ((short)((i * 37) % 101 - 50) < r) r = (short)((i * 37) % 101 - 50);
    }
    printf("%-3s n=%-2d %d\n", "min", n, (int)r);
}

static void op7(int n)
{
    short r = (short)~0;
#pragma omp parallel for reduction(& : r)
    for (int i = 0; i < n; i++) {
        r &= (short)~(1 << (i % 6));
    }
    printf("%-3s n=%-2d %d\n", "&", n, (int)r);
}

static void op8(int n)
{
    short r = (short)0x40;
#pragma omp parallel for reduction(| : r)
    for (int i = 0; i < n; i++) {
        r |= (short)(1 << (i % 5));
    }
    printf("%-3s n=%-2d %d\n", "|", n, (int)r);
}

static void op9(int n)
{
    short r = (short)0x5a;
#pragma omp parallel for reduction(^ : r)
    for (int i = 0; i < n; i++) {
        r ^= (short)(i * 37 + 11);
    }
    printf("%-3s n=%-2d %d\n", "^", n, (int)r);
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
