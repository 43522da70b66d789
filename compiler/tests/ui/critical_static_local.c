#include <stdio.h>
int total;
static int next_id(void)
{
    static int id;
    return ++id;
}
int main(void)
{
#pragma omp parallel
    {
#pragma omp critical
        {
            int v = next_id();
            total += v;
        }
    }
    printf("%d\n", total);
    return 0;
}
