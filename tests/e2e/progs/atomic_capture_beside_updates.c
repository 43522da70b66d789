/* `atomic capture` of a counter that plain `atomic` updates, update-form `critical` sections
   and lock-pair updates of the same region also change: every thread adds before it captures,
   so every captured value counts the additions made before it (at any thread count each
   captured value is at least the thread's own addition, and the set of captured values is a
   sequence no interleaving can make smaller). Only order-independent facts are printed. */
#ifdef _OPENMP
#include <omp.h>
#else
typedef int omp_lock_t;
static void omp_init_lock(omp_lock_t *l) { *l = 0; }
static void omp_set_lock(omp_lock_t *l) { ++*l; }
static void omp_unset_lock(omp_lock_t *l) { --*l; }
static void omp_destroy_lock(omp_lock_t *l) { *l = 0; }
#endif
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
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 64; i++) {
#pragma omp atomic
        cnt += 100;
        int v;
#pragma omp atomic capture
        v = cnt++;
        caps[i] = v;
#pragma omp critical
        big += 1000;
        long w;
#pragma omp atomic capture
        {
            big -= 1;
            w = big;
        }
        bigcaps[i] = w;
        omp_set_lock(&lock);
        *tickp += 10;
        omp_unset_lock(&lock);
        int t;
#pragma omp atomic capture
        t = tick++;
        tickcaps[i] = t;
    }
    omp_destroy_lock(&lock);
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
