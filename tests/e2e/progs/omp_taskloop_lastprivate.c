/* taskloop with lastprivate: only the task that runs the sequentially last iteration gives
   the value, wherever the tasks run (a spreading `single` runs task k on rank k mod P); with
   grainsize, num_tasks, firstprivate + lastprivate on one variable (every task starts from
   the original), collapse(2), a lastprivate array and loop variables, and a taskloop that
   every thread of the team encounters. e2e: openmp-only (a task's firstprivate copy starts
   from the original, which the program without OpenMP does not do) */
#include <stdio.h>

int g_last = -1;


int main(void)
{
    int last = -1, nt_last = -1, acc = 1000, li = -1, lj = -1, i, j;
    int arr[3] = {0, 0, 0};
    int each = -1;
    long every = 0;
#pragma omp parallel
    {
#pragma omp single
        {
#pragma omp taskloop lastprivate(last) grainsize(10)
            for (int k = 0; k < 100; k++)
                last = k;
#pragma omp taskloop lastprivate(nt_last, g_last) num_tasks(4)
            for (int k = 0; k < 100; k++) {
                nt_last = 3 * k;
                g_last = k + 1;
            }
            /* every task starts from 1000: the last task (k = 90..99) ends with 1000 + 945 */
#pragma omp taskloop firstprivate(acc) lastprivate(acc) grainsize(10)
            for (int k = 0; k < 100; k++)
                acc += k;
#pragma omp taskloop collapse(2) lastprivate(li, lj, i, j) grainsize(7)
            for (i = 0; i < 10; i++)
                for (j = 0; j < 6; j++) {
                    li = i;
                    lj = j;
                }
#pragma omp taskloop lastprivate(arr) grainsize(3)
            for (int k = 0; k < 20; k++) {
                arr[0] = k;
                arr[1] = k * k;
                arr[2] = -k;
            }
        }
        /* no single: every thread creates (and runs) its own taskloop */
#pragma omp taskloop lastprivate(each) grainsize(4)
        for (int k = 0; k < 30; k++) {
            each = k * 2;
#pragma omp atomic
            every++;
        }
    }
    printf("last=%d nt_last=%d g_last=%d acc=%d\n", last, nt_last, g_last, acc);
    printf("collapse: li=%d lj=%d i=%d j=%d\n", li, lj, i, j);
    printf("arr=%d %d %d\n", arr[0], arr[1], arr[2]);
    printf("each=%d every%%30=%ld\n", each, every % 30);
    return 0;
}
