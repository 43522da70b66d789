#include <stdio.h>
int a[100];
void f(void)
{
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        if (i >= 50)
            return;
        a[i] = 1;
    }
}
int main(void)
{
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < 100; i++) {
            a[i] = i;
#pragma omp barrier
        }
#pragma omp single
        {
#pragma omp for
            for (int i = 0; i < 10; i++) a[i] = 0;
        }
#pragma omp master
        {
#pragma omp barrier
        }
    }
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
        if (i == 50) break;
        for (int j = 0; j < 3; j++) { if (j == 1) break; if (j == 2) continue; }
        switch (i) { case 1: break; default: break; }
        if (i == 7) continue;
        a[i] = i;
    }
#pragma omp parallel
    {
        if (a[0]) goto out;
        goto inside;
inside:
        a[1] = 2;
    }
out:
#pragma omp parallel for
    for (int i = 0; i < 100; i++) {
#pragma omp single
        a[i] = 0;
#pragma omp critical
        {
#pragma omp barrier
        }
    }
    f();
    printf("%d\n", a[99]);
    return 0;
}
