/* recursive divide and conquer with `task` + `taskwait`: fib with results in the caller's
   locals, a merge sort of a global array, a walk over a tree stored in arrays; every
   `single` only calls generating code, so its top-level tasks are spread over the ranks */
#include <stdio.h>

#define N 20000
#define NODES 4095

int data[N], tmp[N];
int left_child[NODES], right_child[NODES];
long weight[NODES];

long fib(int n)
{
    long x, y;
    if (n < 2)
        return n;
#pragma omp task shared(x)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

static void merge(int lo, int mid, int hi)
{
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        tmp[k++] = data[i] <= data[j] ? data[i++] : data[j++];
    while (i < mid)
        tmp[k++] = data[i++];
    while (j < hi)
        tmp[k++] = data[j++];
    for (k = lo; k < hi; k++)
        data[k] = tmp[k];
}

void sort(int lo, int hi)
{
    if (hi - lo < 2)
        return;
    int mid = lo + (hi - lo) / 2;
#pragma omp task
    sort(lo, mid);
#pragma omp task
    sort(mid, hi);
#pragma omp taskwait
    merge(lo, mid, hi);
}

long walk(int node, int depth)
{
    long l = 0, r = 0;
    if (node < 0)
        return 0;
#pragma omp task shared(l)
    l = walk(left_child[node], depth + 1);
#pragma omp task shared(r)
    r = walk(right_child[node], depth + 1);
#pragma omp taskwait
    return l + r + weight[node] * (depth + 1);
}

int main(void)
{
    unsigned s = 12345;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        data[i] = (int)(s >> 8) % 100000;
    }
    for (int i = 0; i < NODES; i++) {
        left_child[i] = 2 * i + 1 < NODES ? 2 * i + 1 : -1;
        right_child[i] = 2 * i + 2 < NODES ? 2 * i + 2 : -1;
        weight[i] = (i * 37) % 101;
    }
    long f = 0, w = 0;
#pragma omp parallel
    {
#pragma omp single
        f = fib(24);
#pragma omp single
        sort(0, N);
#pragma omp single
        w = walk(0, 0);
    }
    long check = 0;
    int sorted = 1;
    for (int i = 0; i < N; i++) {
        check = (check * 31 + data[i]) % 1000000007;
        if (i > 0 && data[i - 1] > data[i])
            sorted = 0;
    }
    printf("fib(24) = %ld\n", f);
    printf("sorted %d, checksum %ld, min %d, max %d\n", sorted, check, data[0], data[N - 1]);
    printf("tree walk %ld\n", w);
    return 0;
}
