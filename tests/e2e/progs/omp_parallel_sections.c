/* parallel sections with private, lastprivate and reduction; more sections than some teams */
#include <stdio.h>

double r[5];

static double series(int k)
{
    double s = 0;
    for (int i = 1; i <= 1000 * k; i++)
        s += 1.0 / ((double)i * i);
    return s;
}

int main(void)
{
    int t = 0, last = 0;
    long count = 0;
#pragma omp parallel sections private(t) lastprivate(last) reduction(+ : count)
    {
#pragma omp section
        {
            t = 1;
            r[0] = series(t);
            last = 10;
            count++;
        }
#pragma omp section
        {
            t = 2;
            r[1] = series(t);
            last = 20;
            count++;
        }
#pragma omp section
        {
            t = 3;
            r[2] = series(t);
            last = 30;
            count++;
        }
#pragma omp section
        {
            r[3] = series(4);
            last = 40;
            count++;
        }
#pragma omp section
        {
            r[4] = series(5);
            last = 50;
            count++;
        }
    }
    printf("last=%d count=%ld", last, count);
    for (int i = 0; i < 5; i++)
        printf(" %.9f", r[i]);
    printf("\n");
    return 0;
}
