/* if(): if(0) runs the region on one thread, if(expr) decides at run time */
#include <stdio.h>

int a[300], b[300], c[300];

int main(void)
{
    int n = 300, small = 10;
#pragma omp parallel for if(0)
    for (int i = 0; i < n; i++)
        a[i] = i * 2;
#pragma omp parallel for if(n > 100)
    for (int i = 0; i < n; i++)
        b[i] = a[i] + 1;
#pragma omp parallel for if(small > 100) schedule(static, 7)
    for (int i = 0; i < n; i++)
        c[i] = b[n - 1 - i] - a[i];
    unsigned long s = 0;
    for (int i = 0; i < n; i++)
        s = s * 7 + c[i] + a[i] + b[i];
    printf("hash=%lu c[0]=%d c[299]=%d\n", s, c[0], c[299]);
    return 0;
}
