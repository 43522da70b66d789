#include <omp.h>
#include <stdio.h>

int flag[64];
double v[64];

static void wait_for(int k)
{
    while (flag[k] == 0) {
#pragma omp flush(flag)
    }
}

int main(void)
{
#pragma omp parallel
    {
        int me = omp_get_thread_num();
        if (me > 0)
            wait_for(me - 1);
        v[me] = me;
        flag[me] = 1;
#pragma omp flush(flag)
    }
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        v[i] += 1;
    printf("%f\n", v[1]);
    return 0;
}
