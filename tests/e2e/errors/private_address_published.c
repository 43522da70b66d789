// expect-error: 16
/* A thread publishes the address of its private variable in a shared array for another
   thread to read after a barrier: valid OpenMP, but under capecc each rank would read its
   own copy of the variable (the stacks are at the same addresses on every rank); refused at
   the store. */
#include <omp.h>
#include <stdio.h>
int *slot[64];
int bad = 0;
int main(void)
{
#pragma omp parallel
    {
        int id = omp_get_thread_num(), nt = omp_get_num_threads();
        int mine = id;
        slot[id] = &mine;
#pragma omp barrier
        if (*slot[(id + 1) % nt] != (id + 1) % nt) {
#pragma omp atomic
            bad++;
        }
#pragma omp barrier
    }
    printf("bad=%d\n", bad);
    return 0;
}
