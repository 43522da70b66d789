/* `__int128` and `unsigned __int128` variables under `atomic` (update, read, write, capture)
 * and under update-form `critical`: values beyond 64 bits survive the merge. */
#include <stdio.h>

#define N 40
__int128 sum = 0, big = (__int128)1 << 100;
unsigned __int128 prod = 1, mask = 0, top = 0;
__int128 ticket = ((__int128)7 << 90) - 20;
__int128 seen[N];
int narrow = 0;
__int128 crit = -3;

static void show(const char *name, unsigned __int128 v)
{
    printf("%s %016llx%016llx\n", name, (unsigned long long)(v >> 64), (unsigned long long)v);
}

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
#pragma omp atomic
        sum += (__int128)(i + 1) << 80;
#pragma omp atomic
        sum -= i;
#pragma omp atomic
        prod *= 3;
#pragma omp atomic
        mask |= (unsigned __int128)1 << (i * 3);
#pragma omp atomic
        big /= 2;
#pragma omp atomic
        narrow += (__int128)1 << 64 | 1; /* an operand wider than the variable */
#pragma omp critical
        {
            if ((unsigned __int128)i << 90 > top)
                top = (unsigned __int128)i << 90;
        }
#pragma omp critical
        crit = crit + ((__int128)5 << 70);
        __int128 t;
#pragma omp atomic capture
        t = ticket++;
        seen[i] = t;
    }
    show("sum", (unsigned __int128)sum);
    show("prod", prod);
    show("mask", mask);
    show("big", (unsigned __int128)big);
    show("top", top);
    show("crit", (unsigned __int128)crit);
    show("ticket", (unsigned __int128)ticket);
    printf("narrow %d\n", narrow);
    /* the captured tickets are distinct and fill a range */
    unsigned __int128 lo = (unsigned __int128)seen[0], xr = 0;
    for (int i = 0; i < N; i++) {
        if ((unsigned __int128)seen[i] < lo)
            lo = (unsigned __int128)seen[i];
        xr ^= (unsigned __int128)seen[i];
    }
    show("lowest", lo);
    show("xor", xr);

    __int128 r = 0;
#pragma omp parallel
    {
        __int128 mine;
#pragma omp atomic read
        mine = sum;
#pragma omp single
        {
#pragma omp atomic write
            r = mine + ((__int128)3 << 70);
        }
    }
    show("read-write", (unsigned __int128)r);
    return 0;
}
