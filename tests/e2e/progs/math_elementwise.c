/* libm results written element-wise and printed with all 17 digits:
 * each element is computed once, so the result is bit-exact */
#include <math.h>
#include <stdio.h>

double out[1000];
float fout[1000];

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 1000; i++) {
        double x = i * 0.001 - 0.3;
        out[i] = sin(x) * exp(-x * x) + sqrt(i + 0.5) / (1.0 + fabs(x));
        fout[i] = (float)cos(x) * 3.0f;
    }
    unsigned long h = 1469598103934665603UL;
    for (int i = 0; i < 1000; i++) {
        const unsigned char *p = (const unsigned char *)&out[i];
        for (int k = 0; k < 8; k++)
            h = (h ^ p[k]) * 1099511628211UL;
        const unsigned char *q = (const unsigned char *)&fout[i];
        for (int k = 0; k < 4; k++)
            h = (h ^ q[k]) * 1099511628211UL;
    }
    printf("%.17g %.17g %.9g %016lx\n", out[0], out[999], (double)fout[500], h);
    return 0;
}
