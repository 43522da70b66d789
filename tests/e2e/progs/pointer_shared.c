/* a shared pointer variable, pointer arithmetic into the middle of an
 * array, and a pointer to a pointer */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int *base = calloc(500, sizeof *base);
    int *mid = base + 250;
    int **pp = &mid;
    double buf[100];
    double *cursor = buf + 10;
#pragma omp parallel for
    for (int i = -100; i < 100; i++)
        (*pp)[i] = i * i - 3 * i;
#pragma omp parallel for
    for (int i = 0; i < 80; i++)
        cursor[i] = mid[i - 50] * 0.5;
    long s = 0;
    for (int i = 0; i < 500; i++)
        s += base[i] * (i % 7);
    double d = 0;
    for (int i = 10; i < 90; i++)
        d += buf[i];
    printf("s=%ld d=%.2f base[150]=%d buf[89]=%.1f\n", s, d, base[150], buf[89]);
    free(base);
    return 0;
}
