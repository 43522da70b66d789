/* tasks that write through pointers: a single spreads (__cape_task_single_begin) only when
   every pointer its tasks use points into merged memory (globals, the heap, locals of the
   function outside the region); a pointer to a local of the region keeps the tasks on the
   single's thread (__cape_single_begin) */
#include <stdlib.h>
int table[64];
static void sort(int *a, int lo, int hi)
{
    if (hi - lo < 2)
        return;
    int mid = (lo + hi) / 2;
#pragma omp task
    sort(a, lo, mid);
#pragma omp task
    sort(a, mid, hi);
#pragma omp taskwait
    a[lo] = a[lo] < a[hi - 1] ? a[lo] : a[hi - 1];
}
/* a generating function called with a local of the region */
static void halves(int *a, int n)
{
#pragma omp task
    a[0] = n;
#pragma omp task
    a[n - 1] = n;
#pragma omp taskwait
}
static void fill(int *p, int k)
{
    p[k] = k;
}
int main(void)
{
    int *heap = malloc(64 * sizeof *heap);
    int outer[64];
#pragma omp parallel
    {
        int acc[8] = {0};
        int *pa = acc;
        int *pt = table;
        int *po = outer;
#pragma omp single
        for (int k = 0; k < 64; k++) {
#pragma omp task
            pt[k] = k;
        }
#pragma omp single
        for (int k = 0; k < 64; k++) {
#pragma omp task
            po[k] = k;
        }
#pragma omp single
        sort(heap, 0, 64);
#pragma omp single
        for (int k = 0; k < 8; k++) {
#pragma omp task
            pa[k] = k;
        }
#pragma omp single
        for (int k = 0; k < 8; k++) {
#pragma omp task
            fill(pa, k);
        }
        int local[64];
#pragma omp single
        halves(local, 64);
    }
    free(heap);
    return table[3] + outer[5];
}
