/* a thread spins on a `volatile` flag that another thread sets, with no flush: under capecc
   the other thread is another process, so the loop would never end; refused at compile time */
// expect-error: 18
#include <omp.h>
#include <stdio.h>

volatile int flag = 0;
int data = 0, got = 0;

int main(void)
{
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0) {
            data = 42;
            flag = 1;
        } else {
            while (!flag)
                ;
            got = data;
        }
    }
    printf("%d\n", got);
    return 0;
}
