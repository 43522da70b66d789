#include <stdio.h>
int total;
void bump(int *p); /* defined in another file */
int main(void)
{
#pragma omp parallel
    {
#pragma omp critical
        {
            bump(&total);
            printf("%d\n", total);
        }
    }
    return 0;
}
