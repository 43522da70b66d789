/* `parallel master` and `parallel masked`: the clauses of `parallel` (and `filter` on
   `parallel masked`) only; the block is a `master` region, where worksharing constructs and
   barriers may not be closely nested */
int a[100];

int main(void)
{
    int x = 0;
#pragma omp parallel master nowait
    x++;
#pragma omp parallel master filter(1)
    x++;
#pragma omp parallel masked lastprivate(x)
    x++;
#pragma omp parallel master
    {
#pragma omp for
        for (int i = 0; i < 100; i++)
            a[i] = i;
#pragma omp barrier
#pragma omp single
        x++;
#pragma omp master
        x++;
    }
    return x;
}
