#include <stdio.h>
int total;
static void bump(int *p) { *p += 1; }
void (*action)(int *) = bump;
int main(void)
{
#pragma omp parallel
    {
#pragma omp critical
        {
            action(&total);
            printf("%d\n", total);
        }
    }
    return 0;
}
