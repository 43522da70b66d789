/* After a parallel region `errno` is the initial thread's: the thread that runs iteration 0
 * and the `master` blocks. Sequential code that tests it must take the same branch on every
 * rank; each rank's share of the next loop writes what its branch decided. Covers a team of
 * every rank, a team smaller than the world (num_threads(2)), a team with several threads in
 * a rank (num_threads(9)), an errno set before a region that does not touch it, and a
 * barrier inside a region (the merge there must not change it). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

double v[64];
int a[64];

static int spread(int flag)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        a[i] = flag;
    int s = 0;
    for (int i = 0; i < 64; i++)
        s += a[i];
    return s;
}

int main(void)
{
    errno = 0;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < 64; i++)
        v[i] = strtod(i == 0 ? "1e999" : "1.5", NULL);
    printf("whole team: %d\n", spread(errno == ERANGE));

    errno = 0;
#pragma omp parallel for schedule(static) num_threads(2)
    for (int i = 0; i < 64; i++)
        v[i] = strtod(i == 0 ? "1e999" : "2.5", NULL);
    printf("two threads: %d\n", spread(errno == ERANGE));

    errno = 0;
#pragma omp parallel for schedule(static) num_threads(9)
    for (int i = 0; i < 64; i++)
        v[i] = strtod(i == 0 ? "1e999" : "3.5", NULL);
    printf("nine threads: %d\n", spread(errno == ERANGE));

    errno = EDOM;
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        v[i] = i * 0.5;
    printf("kept: %d\n", spread(errno == EDOM));

    int saw = 0;
    errno = 0;
#pragma omp parallel
    {
#pragma omp master
        v[0] = strtod("1e999", NULL);
#pragma omp barrier
#pragma omp master
        saw = errno == ERANGE;
    }
    printf("across a barrier: %d %d\n", saw, spread(errno == ERANGE));
    return 0;
}
