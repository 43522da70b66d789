#include <omp.h>

int hist[8];
long total;
int tp;
#pragma omp threadprivate(tp)
struct point { int x, y; } pt;

void orphan(int *v, int n)
{
#pragma omp for nowait
    for (int i = 0; i < n; i++)
        v[i] = i;
}

int main(void)
{
    int v[16], best = 0, worst = 100, last = 0, shared_copy = 0;
    double d = 1.0;
    struct point *pp = &pt;
#pragma omp parallel copyin(tp) num_threads(4) if(1)
    {
        int me = omp_get_thread_num();
        orphan(v, 16);
#pragma omp barrier
#pragma omp for schedule(dynamic, 2) lastprivate(last)
        for (int i = 0; i < 16; i++)
            last = v[i];
#pragma omp sections nowait
        {
#pragma omp section
            hist[0] = 1;
#pragma omp section
            hist[1] = 2;
        }
#pragma omp single copyprivate(shared_copy)
        shared_copy = 5;
#pragma omp master
        hist[2] = 3;
#pragma omp masked filter(1)
        hist[3] = 4;
#pragma omp critical(update)
        {
            total += me;
            hist[me % 8]++;
            pt.x -= 1;
            pp->y *= 2;
            d = d + 0.5;
            if (me > best) best = me;
            if (worst > me) worst = me;
        }
#pragma omp atomic
        total++;
#pragma omp atomic update
        --hist[4];
#pragma omp atomic
        hist[5] = 3 ^ hist[5];
#pragma omp atomic read
        me = hist[6];
#pragma omp atomic write
        hist[7] = me;
#pragma omp flush(total)
#pragma omp taskwait
    }
    return (int)total + best + worst + last + shared_copy + (int)d;
}
