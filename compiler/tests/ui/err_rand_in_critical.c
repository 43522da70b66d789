#include <stdlib.h>

int x[100];
int n;

int main(void)
{
    srand(1);
#pragma omp parallel for
    for (int i = 0; i < 100; i++)
    {
#pragma omp critical
        {
            x[n] = rand();
            n++;
        }
    }
    return 0;
}
