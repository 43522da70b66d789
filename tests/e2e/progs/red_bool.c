/* reduction operators on _Bool; contributions chosen so that every result is exact
 * and independent of how the iterations are split
 * `+` and `-` are left out: gcc -fopenmp combines _Bool partials as integers and
 * stores values other than 0 and 1, so there is no reference to compare with */
#include <stdio.h>

static void op1(int n)
{
    _Bool r = 1;
#pragma omp parallel for reduction(* : r)
    for (int i = 0; i < n; i++) {
        r *= (_Bool)(i % 5 != 3);
    }
    printf("%-3s n=%-2d %d\n", "*", n, (int)r);
}

static void op3(int n)
{
    _Bool r = 1;
#pragma omp parallel for reduction(& : r)
    for (int i = 0; i < n; i++) {
        r &= (_Bool)(i % 5 != 3);
    }
    printf("%-3s n=%-2d %d\n", "&", n, (int)r);
}

static void op4(int n)
{
    _Bool r = 0;
#pragma omp parallel for reduction(| : r)
    for (int i = 0; i < n; i++) {
        r |= (_Bool)(i % 5 == 3);
    }
    printf("%-3s n=%-2d %d\n", "|", n, (int)r);
}

static void op5(int n)
{
    _Bool r = 0;
#pragma omp parallel for reduction(^ : r)
    for (int i = 0; i < n; i++) {
        r ^= (_Bool)(i % 5 == 3);
    }
    printf("%-3s n=%-2d %d\n", "^", n, (int)r);
}

static void op6(int n)
{
    _Bool r = 1;
#pragma omp parallel for reduction(&& : r)
    for (int i = 0; i < n; i++) {
        r = r && (_Bool)(i % 5 != 3);
    }
    printf("%-3s n=%-2d %d\n", "&&", n, (int)r);
}

static void op7(int n)
{
    _Bool r = 0;
#pragma omp parallel for reduction(|| : r)
    for (int i = 0; i < n; i++) {
        r = r || (_Bool)(i % 5 == 3);
    }
    printf("%-3s n=%-2d %d\n", "||", n, (int)r);
}

static void op8(int n)
{
    _Bool r = 0;
#pragma omp parallel for reduction(max : r)
    for (int i = 0; i < n; i++) {
        if ((_Bool)(i % 5 == 3) > r) r = (_Bool)(i % 5 == 3);
    }
    printf("%-3s n=%-2d %d\n", "max", n, (int)r);
}

static void op9(int n)
{
    _Bool r = 1;
#pragma omp parallel for reduction(min : r)
    for (int i = 0; i < n; i++) {
        if ((_Bool)(i % 5 != 3) < r) r = (_Bool)(i % 5 != 3);
    }
    printf("%-3s n=%-2d %d\n", "min", n, (int)r);
}

int main(void)
{
    int sizes[] = {37, 3, 1, 0};
    for (int s = 0; s < 4; s++) {
        op1(sizes[s]);
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
