/* OpenMP 5.0 `depend(mutexinoutset: x)`: the tasks may run in any order but not at the same
   time, and a later `in` dependence waits for all of them. Every order gives the same sums. */
#include <stdio.h>

int main(void)
{
    long a = 0, b = 0, c[8] = {0};
#pragma omp parallel
#pragma omp single
    {
        for (int k = 1; k <= 6; k++) {
#pragma omp task depend(mutexinoutset : a) firstprivate(k)
            a += k * k;
        }
#pragma omp task depend(in : a) depend(out : b)
        b = a * 10;
        for (int k = 0; k < 8; k++) {
#pragma omp task depend(mutexinoutset : c) firstprivate(k)
            c[k % 3] += k;
        }
#pragma omp taskwait
    }
    printf("a=%ld b=%ld c=%ld %ld %ld\n", a, b, c[0], c[1], c[2]);
    return 0;
}
