/* output printed inside parallel regions by one thread (any rank) appears between the sequential
   output before and after the region, in the order the barriers give, as with threads */
#include <stdio.h>
int main(void) {
    for (int round = 0; round < 5; round++) {
        printf("before %d\n", round);
        #pragma omp parallel for
        for (int i = 0; i < 16; i++)
            if (i == 3 + round * 2) printf("found %d\n", i);
        printf("after %d\n", round);
    }
    #pragma omp parallel
    {
        #pragma omp single
        printf("single\n");
        #pragma omp for
        for (int i = 0; i < 8; i++)
            if (i == 7) printf("last iteration\n");
        #pragma omp master
        printf("master\n");
    }
    printf("end\n");
    return 0;
}
