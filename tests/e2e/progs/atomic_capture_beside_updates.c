/* `atomic capture` of a counter that plain `atomic` updates of the same region also change
   (directly and through a pointer): every thread adds before it captures, so every captured
   value counts the additions made before it (at any thread count each captured value is at
   least the thread's own addition). Only order-independent facts are printed. (An update in
   a `critical` section or under a lock beside `atomic` ones of the same variable is a race in
   OpenMP: they do not exclude each other.) */
#include <stdio.h>

int cnt = 0;
int caps[64];
long big = 0;
long bigcaps[64];
int tick = 0;
int tickcaps[64];
int *tickp = &tick;

int main(void)
{
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 64; i++) {
#pragma omp atomic
        cnt += 100;
        int v;
#pragma omp atomic capture
        v = cnt++;
        caps[i] = v;
#pragma omp atomic
        big += 1000;
        long w;
#pragma omp atomic capture
        {
            big -= 1;
            w = big;
        }
        bigcaps[i] = w;
#pragma omp atomic
        *tickp += 10;
        int t;
#pragma omp atomic capture
        t = tick++;
        tickcaps[i] = t;
    }
    int cmin = 1 << 30, cmax = -1, tmin = 1 << 30;
    long bmin = 1L << 40, bmax = -1;
    for (int i = 0; i < 64; i++) {
        if (caps[i] < cmin)
            cmin = caps[i];
        if (caps[i] > cmax)
            cmax = caps[i];
        if (bigcaps[i] < bmin)
            bmin = bigcaps[i];
        if (bigcaps[i] > bmax)
            bmax = bigcaps[i];
        if (tickcaps[i] < tmin)
            tmin = tickcaps[i];
    }
    printf("cnt %d big %ld tick %d\n", cnt, big, tick);
    printf("captures of cnt >= 100: %d, <= %d: %d\n", cmin >= 100, 64 * 101 - 1, cmax <= 64 * 101 - 1);
    printf("captures of big >= 999: %d, <= %d: %d\n", bmin >= 999, 64 * 1000 - 1, bmax <= 64 * 1000 - 1);
    printf("captures of tick >= 10: %d\n", tmin >= 10);
    return 0;
}
