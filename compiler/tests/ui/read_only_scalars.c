/* Which shared scalars the outlined function copies into locals: only those the region
   reads and nothing can change while it runs. */
static void bump(int *p) { *p += 1; }

void kernel(double *x, int n, double scale, int limit)
{
    int written = 0, escaped = 1, reduced = 0, last = 0;
    static int counter;
    volatile int flag = 1;
    int *alias = &escaped;
    double local[4] = {0};
#pragma omp parallel for shared(written, escaped, counter, flag, alias, local)
    for (int i = 0; i < n; i++) {
        x[i] = x[i] * scale + escaped + counter + flag + local[i % 4];
        if (i == limit)
            written = i;
        bump(alias);
    }
#pragma omp parallel
    {
#pragma omp for reduction(+ : reduced) lastprivate(last)
        for (int i = 0; i < n; i++) {
            reduced += i;
            last = i;
        }
        x[0] += reduced + last + n;
    }
}
