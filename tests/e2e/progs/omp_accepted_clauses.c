/* clauses accepted without effect under CAPE: proc_bind, hint on critical, seq_cst on atomic,
   monotonic / nonmonotonic schedule modifiers (nonmonotonic also on static, as OpenMP 5.0) */
#include <stdio.h>

#define N 300
int a[N];

int main(void)
{
    long sum = 0;
    int hits = 0;
#pragma omp parallel for proc_bind(close) schedule(monotonic : static, 7)
    for (int i = 0; i < N; i++)
        a[i] = i * 3;
#pragma omp parallel for schedule(nonmonotonic : dynamic, 5)
    for (int i = 0; i < N; i++) {
#pragma omp atomic seq_cst
        sum += a[i];
#pragma omp critical(counting) hint(0)
        hits++;
    }
#pragma omp parallel for schedule(nonmonotonic : static)
    for (int i = 0; i < N; i++)
        a[i] += 1;
#pragma omp parallel for schedule(nonmonotonic : static, 4) reduction(+ : sum)
    for (int i = 0; i < N; i++)
        sum += a[i];
    printf("%ld %d\n", sum, hits);
    return 0;
}
