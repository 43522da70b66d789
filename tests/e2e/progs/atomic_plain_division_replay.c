/* A thread's plain store between two of its `atomic` updates of a variable: the runtime replays
 * the updates without the store to tell that the variable was stored, and the replayed division
 * then meets a value the program never divided (INT_MIN / -1, which traps on x86). The merge
 * must not trap: the variable merges as the thread's store. */
#include <limits.h>
#include <stdio.h>

int x = INT_MIN + 1;
long long y = LLONG_MIN + 3;
int others = 0;

int main(void)
{
#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp atomic
            x -= 1; /* INT_MIN */
            x = 12;
#pragma omp atomic
            x /= -1;
#pragma omp atomic
            y -= 3;
            y = 40;
#pragma omp critical
            y = y / -1;
        }
#pragma omp atomic
        others += 1;
    }
    printf("x=%d y=%lld others>0:%d\n", x, y, others > 0);
    return 0;
}
