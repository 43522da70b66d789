/* num_threads(): 1, 2 and more than the usual team; results must not depend on it */
#include <stdio.h>

int main(void)
{
    double v[200];
    int w[200];
    long total = 0;
    int nt = 3;
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < 200; i++)
        v[i] = i * 1.25;
#pragma omp parallel for num_threads(1)
    for (int i = 0; i < 200; i++)
        w[i] = (int)v[199 - i];
#pragma omp parallel for num_threads(nt + 4) reduction(+ : total)
    for (int i = 0; i < 200; i++)
        total += w[i] * (i % 3);
#pragma omp parallel for num_threads(2) if(total > 0) schedule(static, 9)
    for (int i = 0; i < 200; i++)
        v[i] += w[i];
    printf("total=%ld v[0]=%.2f v[199]=%.2f\n", total, v[0], v[199]);
    return 0;
}
