#include <stdio.h>
#include <omp.h>
int total;
omp_lock_t lock;
static int next_id(void)
{
    static int id;
    omp_set_lock(&lock);
    ++id;
    omp_unset_lock(&lock);
    return id;
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
