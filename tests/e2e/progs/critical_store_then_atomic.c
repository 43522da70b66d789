/* A general `critical` section's store to a variable, then an `atomic` update of it by the same
 * thread: the update applies on top of the store (program order), also where the section
 * stores the value the variable already had. The reverse order: the section's store wins. */
#include <stdio.h>

#define N 24
int x = 0, y = 0, z = 7, flag = 0;
int a[N], b[N], c[N];

int main(void)
{
#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp critical
            {
                x = 5;
            }
#pragma omp atomic
            x += 1;
#pragma omp critical
            {
                z = 7; /* the value z already has */
            }
#pragma omp atomic
            z *= 3;
#pragma omp atomic
            y += 4;
#pragma omp critical
            {
                y = y * 10;
            }
        }
    }
    printf("single: x=%d y=%d z=%d\n", x, y, z);

#pragma omp parallel for
    for (int i = 0; i < N; i++) {
#pragma omp critical(cell)
        {
            a[i] = i * 10;
            b[i] = a[i] + 1;
        }
#pragma omp atomic
        a[i] += 1;
#pragma omp atomic
        b[i] *= 2;
#pragma omp atomic
        c[i] -= i;
#pragma omp critical(cell)
        {
            c[i] = c[i] * 3;
        }
#pragma omp atomic
        c[i] += 100;
    }
    long sa = 0, sb = 0, sc = 0;
    for (int i = 0; i < N; i++) {
        sa += a[i] * (i + 1);
        sb += b[i] * (i + 1);
        sc += c[i] * (i + 1);
    }
    printf("loop: a=%ld b=%ld c=%ld\n", sa, sb, sc);
    return 0;
}
