/* a producer and a consumer hand values over through a shared slot and a flag with `flush`
   (thread 0 produces, the last thread consumes; a team of one does both in turn) */
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define N 200

int full;
long slot;
long received[N];

long produce(int i) { return (long)i * i % 97 + 3 * i; }

int main(void)
{
#pragma omp parallel
    {
        int iam = 0, nt = 1;
#ifdef _OPENMP
        iam = omp_get_thread_num();
        nt = omp_get_num_threads();
#endif
        for (int i = 0; i < N; i++) {
            if (iam == 0) {
                /* wait until the slot is empty */
                while (full) {
#pragma omp flush(full)
                }
                slot = produce(i);
#pragma omp flush(slot)
                full = 1;
#pragma omp flush(full)
            }
            if (iam == nt - 1) {
                while (!full) {
#pragma omp flush(full)
                }
#pragma omp flush(slot)
                received[i] = slot * 2 + 1;
                full = 0;
#pragma omp flush(full)
            }
        }
    }
    long sum = 0;
    for (int i = 0; i < N; i++)
        sum += received[i] * (i % 5 + 1);
    printf("received %ld %ld %ld, weighted sum %ld\n", received[0], received[N / 2], received[N - 1], sum);
    return 0;
}
