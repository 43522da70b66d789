/* `parallel master` / `parallel masked`: `parallel` with the statement as a `master` /
   `masked` block inside; the clauses are the region's, `filter` is evaluated in it */
int a[100];

int main(void)
{
    int p = 1, fp = 2, sum = 0, f = 1;
#pragma omp parallel master num_threads(4) private(p) firstprivate(fp) reduction(+ : sum)
    {
        p = fp;
        for (int i = 0; i < 100; i++)
            sum += a[i] + p;
    }
#pragma omp parallel masked filter(f + 1) if(sum > 10) shared(a)
    a[0] = sum;
    return sum + a[0];
}
