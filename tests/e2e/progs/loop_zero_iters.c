/* zero-trip loops: nothing may change and reductions keep the original value
 * (a lastprivate variable is unspecified after a zero-trip loop: not tested) */
#include <stdio.h>

int a[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

int main(int argc, char **argv)
{
    (void)argv;
    int n = argc - 1; /* 0 when run without arguments */
    int i;
    long sum = 5;
    double prod = 3.0;
#pragma omp parallel for reduction(+ : sum) reduction(* : prod)
    for (i = 0; i < n; i++) {
        a[i] = -1;
        sum += 100;
        prod *= 0.0;
    }
    printf("sum=%ld prod=%.1f\n", sum, prod);
#pragma omp parallel for
    for (i = 10; i < 3; i++)
        a[0] = -2;
#pragma omp parallel for
    for (i = 5; i > 5; i--)
        a[1] = -3;
    unsigned int u;
#pragma omp parallel for
    for (u = 0; u < (unsigned)n; u++)
        a[2] = -4;
    for (i = 0; i < 10; i++)
        printf("%d ", a[i]);
    printf("\n");
    return 0;
}
