/* stdin read inside `single` and `master` (one rank reads): every rank still sees the input */
#include <stdio.h>
int main(void) {
    int n = 0, m = 0;
    #pragma omp parallel
    {
        #pragma omp single
        scanf("%d", &n);
        #pragma omp master
        scanf("%d", &m);
    }
    printf("n=%d m=%d\n", n, m);
    return 0;
}
