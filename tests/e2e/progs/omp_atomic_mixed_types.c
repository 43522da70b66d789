/* atomic updates compute in C's types: `x op= e` is `x = (T)(x op e)` with the usual arithmetic
   conversions, as with gcc (int += double, float += double, unsigned division, char overflow,
   _Bool); every update of a variable uses the same operand, so the order does not matter */
#include <stdio.h>

int main(void)
{
    int x = 0, mul = 16, d = -7, m = 0;
    float f = 0;
    unsigned char c = 200;
    char ch = 0;
    short s = 10;
    unsigned long ul = 5;
    _Bool b = 1, b2 = 0;
    double dbl = 1.0;
    long double ld = 0;
#pragma omp parallel for
    for (int i = 0; i < 10; i++) {
#pragma omp atomic
        x += 1.7;
#pragma omp atomic
        f += 0.1;
        if (i < 4) {
#pragma omp atomic
            mul *= 1.5;
#pragma omp atomic
            s -= 0.5;
        }
        if (i < 3) {
#pragma omp atomic
            ch += 300;
#pragma omp atomic
            ul += -1;
        }
        if (i == 5) {
#pragma omp atomic
            d /= 2u;
#pragma omp atomic
            c /= -1;
#pragma omp atomic
            b &= 2;
#pragma omp atomic
            b2 += 2;
        }
#pragma omp atomic
        dbl *= 1.5f;
#pragma omp atomic
        ld += 0.25;
#pragma omp critical
        if (i * 0.75 > m)
            m = i * 0.75;
    }
    printf("%d %.9g %d %d %d %d %d %lu %d %d %.9g %.2Lf %d\n", x, f, mul, s, ch, d, c, ul, b, b2,
           dbl, ld, m);
    return 0;
}
