/* a critical section inside one of the same name: the thread would wait for the lock it
   holds (gcc refuses it too); another name is fine */
// expect-error: 14
#include <stdio.h>

int x, y;

int main(void)
{
#pragma omp parallel
    {
#pragma omp critical(outer)
        {
#pragma omp critical(outer)
            x++;
#pragma omp critical(inner)
            y++;
        }
    }
    printf("%d %d\n", x, y);
    return 0;
}
