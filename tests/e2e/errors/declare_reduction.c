/* `declare reduction` (user-defined reductions) is refused at compile time */
#include <stdio.h>

typedef struct { double re, im; } cplx;

// expect-error: 7
#pragma omp declare reduction(cadd : cplx : omp_out.re += omp_in.re, omp_out.im += omp_in.im) initializer(omp_priv = (cplx){0, 0})

int main(void)
{
    cplx sum = {0, 0};
#pragma omp parallel for reduction(cadd : sum)
    for (int i = 0; i < 100; i++) {
        sum.re += i;
        sum.im -= i;
    }
    printf("%g %g\n", sum.re, sum.im);
    return 0;
}
