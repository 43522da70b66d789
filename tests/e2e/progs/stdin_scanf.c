/* input from stdin with scanf, processed by a parallel loop */
#include <stdio.h>

int values[1000];

int main(void)
{
    int n = 0, scale;
    if (scanf("%d", &scale) != 1) {
        printf("no scale\n");
        return 1;
    }
    while (n < 1000 && scanf("%d", &values[n]) == 1)
        n++;
    long sum = 0;
    int top = -2147483647;
#pragma omp parallel for reduction(+ : sum) reduction(max : top)
    for (int i = 0; i < n; i++) {
        values[i] *= scale;
        sum += values[i];
        if (values[i] > top)
            top = values[i];
    }
    printf("n=%d sum=%ld max=%d last=%d\n", n, sum, top, n ? values[n - 1] : 0);
    return 0;
}
