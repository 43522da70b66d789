/* struct fields of different sizes, neighbours in memory, written by
 * different iterations (and so by different threads) */
#include <stdio.h>

struct rec {
    char a;
    short b;
    char c;
    int d;
    unsigned char e[3];
    double f;
};

struct rec recs[40];

int main(void)
{
    struct rec stack_recs[10] = {{0}};
    /* iteration i writes field i % 4 of record i / 4 */
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 160; i++) {
        struct rec *r = &recs[i / 4];
        switch (i % 4) {
        case 0: r->a = (char)(i + 1); break;
        case 1: r->b = (short)(i * 100); break;
        case 2: r->c = (char)-i; r->e[1] = (unsigned char)(i * 3); break;
        default: r->d = i * 100000; r->f = i / 8.0; break;
        }
    }
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 30; i++) {
        if (i % 3 == 0)
            stack_recs[i / 3].a = (char)i;
        else if (i % 3 == 1)
            stack_recs[i / 3].e[0] = (unsigned char)(200 + i);
        else
            stack_recs[i / 3].e[2] = (unsigned char)(i);
    }
    unsigned long h = 0;
    for (int k = 0; k < 40; k++)
        h = h * 1000003 + (unsigned char)recs[k].a + (unsigned short)recs[k].b * 7u +
            (unsigned char)recs[k].c * 13u + (unsigned)recs[k].d * 17u + recs[k].e[1] +
            (unsigned long)(recs[k].f * 8);
    for (int k = 0; k < 10; k++)
        h = h * 31 + (unsigned char)stack_recs[k].a + stack_recs[k].e[0] * 5u +
            stack_recs[k].e[2] * 11u + (unsigned)stack_recs[k].d;
    printf("hash=%lu recs[39]={%d,%d,%d,%d,%u,%.3f}\n", h, recs[39].a, recs[39].b, recs[39].c,
           recs[39].d, recs[39].e[1], recs[39].f);
    return 0;
}
