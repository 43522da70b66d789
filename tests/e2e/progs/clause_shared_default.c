/* shared(...), default(shared) and default(none) with every variable listed */
#include <stdio.h>

int table[50];
static double gscale = 2.5;

int main(void)
{
    int n = 50, off = 7;
    double res[50];
    long sum = 0;
#pragma omp parallel for shared(table, n) firstprivate(off)
    for (int i = 0; i < n; i++)
        table[i] = i * off;

#pragma omp parallel for default(shared)
    for (int i = 0; i < n; i++)
        res[i] = table[n - 1 - i] * gscale;

#pragma omp parallel for default(none) shared(res, table, n, gscale) reduction(+ : sum)
    for (int i = 0; i < n; i++) {
        sum += (long)(res[i] / gscale) + table[i];
    }
    printf("sum=%ld res[0]=%.2f res[49]=%.2f table[49]=%d\n", sum, res[0], res[49], table[49]);
    return 0;
}
