/* atomic capture: every thread captures a distinct value of one sequence (work lists, tickets) */
#include <stdio.h>
#include <stdlib.h>

#define N 200
int list[N], count;
long tickets[N], next_ticket = 100;
int down = 1000, slots[N];
unsigned char small = 250;
int hist[4], pos[N];

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    int i;
    /* a parallel list append: idx = count++ */
#pragma omp parallel for schedule(dynamic, 7)
    for (i = 0; i < N; i++) {
        if (i % 3 == 0) {
            int idx;
#pragma omp atomic capture
            idx = count++;
            list[idx] = i * i;
        }
    }
    qsort(list, count, sizeof list[0], cmp_int);
    long sum = 0;
    for (i = 0; i < count; i++)
        sum += list[i];
    printf("count=%d sum=%ld first=%d last=%d\n", count, sum, list[0], list[count - 1]);

    /* structured forms, several epochs in one region, old and new values */
#pragma omp parallel
    {
#pragma omp for
        for (i = 0; i < N; i++) {
            long t;
#pragma omp atomic capture
            {
                t = next_ticket;
                next_ticket += 5;
            }
            tickets[i] = t;
        }
#pragma omp for
        for (i = 0; i < N; i++) {
            int s;
#pragma omp atomic capture
            s = down -= 3;
            slots[i] = s;
        }
#pragma omp for
        for (i = 0; i < 8; i++) {
            unsigned char c;
#pragma omp atomic capture
            {
                small++;
                c = small;
            }
            (void)c;
        }
#pragma omp for
        for (i = 0; i < N; i++) {
            int p;
#pragma omp atomic capture
            p = --hist[i % 4];
            pos[i] = p;
        }
    }
    qsort(tickets, N, sizeof tickets[0], cmp_long);
    int distinct = 1;
    for (i = 0; i < N; i++)
        distinct &= tickets[i] == 100 + 5L * i;
    qsort(slots, N, sizeof slots[0], cmp_int);
    int steps = 1;
    for (i = 0; i < N; i++)
        steps &= slots[i] == down + 3 * i;
    qsort(pos, N, sizeof pos[0], cmp_int);
    long possum = 0;
    for (i = 0; i < N; i++)
        possum += pos[i];
    printf("next_ticket=%ld tickets distinct=%d down=%d slots ok=%d small=%u\n", next_ticket,
           distinct, down, steps, small);
    printf("hist %d %d %d %d possum=%ld pos[0]=%d\n", hist[0], hist[1], hist[2], hist[3], possum,
           pos[0]);

    /* outside a region and on a private variable: plain sequential semantics */
    int v, w = 3;
#pragma omp atomic capture
    v = count++;
#pragma omp parallel private(w)
    {
        int mine = 10, got;
        w = 1;
#pragma omp atomic capture
        got = mine += w;
        if (got != 11)
            printf("private capture wrong: %d\n", got);
    }
    printf("v=%d count=%d\n", v, count);
    return 0;
}
