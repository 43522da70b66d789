/* tasks spread over the team: a `single` whose block only creates tasks runs on every thread,
   task k on thread k mod team size; taskwait and taskgroup in it are merge points after which
   the generating code reads the tasks' results; depend chains, nested tasks, taskloop */
#include <stdio.h>

#define N 96
double a[N], b[N], partial[8];
long total, chain[3];
int counts[N];

int main(void)
{
    for (int i = 0; i < N; i++)
        a[i] = i * 0.5;
#pragma omp parallel
    {
#pragma omp single
        {
            for (int i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
                b[i] = a[i] * a[i] + 1;
            }
#pragma omp taskwait
            /* every thread reads the results after the taskwait */
            for (int k = 0; k < 8; k++) {
#pragma omp task firstprivate(k)
                {
                    double s = 0;
                    for (int i = k; i < N; i += 8)
                        s += b[i];
                    partial[k] = s;
                }
            }
#pragma omp taskgroup
            {
                for (int i = 0; i < N; i += 12) {
#pragma omp task firstprivate(i)
                    {
                        counts[i] += 1;
#pragma omp task firstprivate(i)
                        counts[i + 1] += 2;
                    }
                }
            }
#pragma omp task depend(out: chain[0])
            chain[0] = 7;
#pragma omp task depend(in: chain[0]) depend(out: chain[1])
            chain[1] = chain[0] * 3;
#pragma omp task depend(in: chain[1]) depend(out: chain[2])
            chain[2] = chain[1] + chain[0];
#pragma omp taskwait
            total = chain[2] + counts[0] + counts[1];
        }
#pragma omp single
#pragma omp taskloop grainsize(5)
        for (int i = 0; i < N; i++)
            counts[i] += i % 4;
    }
    double s = 0;
    long c = 0;
    for (int k = 0; k < 8; k++)
        s += partial[k];
    for (int i = 0; i < N; i++)
        c += counts[i];
    printf("sum %.2f total %ld counts %ld chain %ld %ld %ld\n", s, total, c, chain[0], chain[1],
           chain[2]);
    return 0;
}
