/* atomic capture handing out tickets in teams of more threads than ranks (num_threads(5), and
   the default team at OMP_NUM_THREADS > 1): every ticket is taken exactly once, by threads of
   the same rank and of different ranks alike; a private counter's capture stays the thread's.
   e2e: openmp-only (num_threads(5) gives 5 threads whatever P; the sequential program runs 1) */
#include <stdio.h>

#define N 600

int next;
long total;
int taken[N];

int main(void)
{
    int twice = 0, bad = 0;
#pragma omp parallel num_threads(5) reduction(+ : bad)
    {
        int mine = 0;
        for (int k = 0; k < 60; k++) {
            int ticket;
#pragma omp atomic capture
            ticket = next++;
            if (ticket >= 0 && ticket < N)
                taken[ticket]++;
            int own;
#pragma omp atomic capture
            own = mine++;
            bad += own != k;
        }
    }
#pragma omp parallel for schedule(static, 3) reduction(+ : bad)
    for (int k = 0; k < 50; k++) {
        long before;
#pragma omp atomic capture
        {
            before = total;
            total += 3;
        }
        bad += before % 3 != 0;
        int ticket;
#pragma omp atomic capture
        ticket = next++;
        if (ticket >= 0 && ticket < N)
            taken[ticket]++;
    }
    for (int i = 0; i < next && i < N; i++)
        twice += taken[i] != 1;
    printf("tickets=%d total=%ld not_once=%d bad=%d\n", next, total, twice, bad);
    return 0;
}
