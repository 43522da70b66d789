#include <stdio.h>
int total;
int main(void)
{
#pragma omp parallel
    {
#pragma omp critical
        {
            total += 1;
            printf("%d\n", total);
        }
    }
    return 0;
}
