/* critical (unnamed and named) around mergeable updates: x += e, x = x op e, x++,
   and the max / min patterns `if (e > m) m = e` */
#include <stdio.h>

#define N 800
int v[N];

int main(void)
{
    long sum = 0, count = 0;
    int best = -1, worst = 1 << 20;
    double dsum = 0;
    for (int i = 0; i < N; i++)
        v[i] = (i * 613) % 1019;
#pragma omp parallel
    {
        long my = 0;
        int mymax = -1, mymin = 1 << 20;
#pragma omp for
        for (int i = 0; i < N; i++) {
            my += v[i];
            if (v[i] > mymax)
                mymax = v[i];
            if (v[i] < mymin)
                mymin = v[i];
        }
#pragma omp critical
        sum += my;
#pragma omp critical(extremes)
        {
            if (mymax > best)
                best = mymax;
        }
#pragma omp critical(extremes)
        if (mymin < worst)
            worst = mymin;
#pragma omp for
        for (int i = 0; i < N; i++) {
            if (v[i] % 3 == 0) {
#pragma omp critical(counting)
                count++;
            }
#pragma omp critical
            dsum = dsum + (v[i] % 8) * 0.5;
        }
    }
    printf("sum=%ld best=%d worst=%d count=%ld dsum=%.1f\n", sum, best, worst, count, dsum);
    return 0;
}
