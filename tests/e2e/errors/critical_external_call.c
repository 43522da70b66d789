/* a function defined in another file, called inside a general critical section: capecc
   cannot follow its stores, so the call is refused where it is written */
// expect-error: 16
#include <stdio.h>

void record(int *log, int i); /* defined in another file */
int log_of[64], count;

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
#pragma omp critical
        {
            count++;
            record(log_of, i);
        }
    }
    printf("%d\n", count);
    return 0;
}
