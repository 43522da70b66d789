/* fewer iterations than threads: 1, 2, 3, 5 and 7 iterations, some ranks idle */
#include <stdio.h>

int g[8];

static void run(int n)
{
    int local[8] = {0};
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < n; i++) {
        g[i] += (i + 1) * n;
        local[i] = 100 + i;
        sum += i * i;
    }
    printf("n=%d sum=%ld local=", n, sum);
    for (int i = 0; i < 8; i++)
        printf("%d%c", local[i], i == 7 ? '\n' : ',');
}

int main(void)
{
    int sizes[] = {1, 2, 3, 5, 7};
    for (int k = 0; k < 5; k++)
        run(sizes[k]);
    for (int i = 0; i < 8; i++)
        printf("g[%d]=%d\n", i, g[i]);
    return 0;
}
