/* `for` inside `parallel`: two dependent loops (implicit barrier between them) and a
   region-private temporary */
#include <stdio.h>

#define N 777
double x[N], y[N], z[N];

int main(void)
{
    double alpha = 0.25;
#pragma omp parallel
    {
        double t;
#pragma omp for
        for (int i = 0; i < N; i++)
            x[i] = (i % 13) * 0.5;
#pragma omp for
        for (int i = 0; i < N; i++) {
            t = x[N - 1 - i] * alpha;
            y[i] = t + x[i];
        }
#pragma omp for
        for (int i = 1; i < N - 1; i++)
            z[i] = y[i - 1] + y[i] + y[i + 1];
    }
    double s = 0;
    for (int i = 0; i < N; i++)
        s += z[i] * (i % 7);
    printf("s=%.4f z[1]=%.4f z[%d]=%.4f\n", s, z[1], N - 2, z[N - 2]);
    return 0;
}
