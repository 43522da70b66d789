/* Generating code that writes shared memory before it creates the tasks that change it
 * further: a task quicksort (the partition, then a task per side), a divide and conquer that
 * updates its whole range before splitting it, and a `single` block that fills an array,
 * then scales each half in a task with a write between the two. The `single`s spread their
 * tasks over the ranks; what the generating code wrote must be every rank's before a task
 * changes it on one. */
#include <stdio.h>

static int sorted[5000], ranged[64], halves[1000];

static void quicksort(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    int p = a[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (a[i] < p)
            i++;
        while (a[j] > p)
            j--;
        if (i <= j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }
#pragma omp task
    quicksort(a, lo, j);
#pragma omp task
    quicksort(a, i, hi);
#pragma omp taskwait
}

static void update_then_split(int *a, int lo, int hi)
{
    if (lo >= hi)
        return;
    for (int k = lo; k <= hi; k++)
        a[k] += 1;
    int mid = (lo + hi) / 2;
#pragma omp task
    update_then_split(a, lo, mid);
#pragma omp task
    update_then_split(a, mid + 1, hi);
#pragma omp taskwait
}

int main(void)
{
    for (int i = 0; i < 5000; i++)
        sorted[i] = (int)((i * 7919L) % 5003);
#pragma omp parallel
#pragma omp single
    quicksort(sorted, 0, 4999);
#pragma omp parallel
#pragma omp single
    update_then_split(ranged, 0, 63);
    int n = 1000;
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < n; i++)
            halves[i] = i;
#pragma omp task
        for (int i = 0; i < n / 2; i++)
            halves[i] *= 2;
        halves[999] += 5;
#pragma omp task
        for (int i = n / 2; i < n; i++)
            halves[i] *= 3;
    }
    int unsorted = 0;
    long s1 = 0, s2 = 0, s3 = 0;
    for (int i = 0; i < 5000; i++) {
        unsorted += i > 0 && sorted[i - 1] > sorted[i];
        s1 += (long)sorted[i] * (i % 13 + 1);
    }
    for (int i = 0; i < 64; i++)
        s2 += (long)ranged[i] * (i + 1);
    for (int i = 0; i < 1000; i++)
        s3 += (long)halves[i] * (i % 7 + 1);
    printf("unsorted=%d s1=%ld s2=%ld s3=%ld\n", unsorted, s1, s2, s3);
    return 0;
}
