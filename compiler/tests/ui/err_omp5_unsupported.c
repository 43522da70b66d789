/* valid OpenMP 5.x that capecc does not implement: "not supported by capecc" at the clause or
   directive, never a syntax error or a clause "not allowed" */
int a[100], b[100];

int main(void)
{
    int last = -1, s = 0;
#pragma omp parallel for lastprivate(conditional: last)
    for (int i = 0; i < 100; i++)
        if (a[i] > 5)
            last = i;
#pragma omp parallel for reduction(inscan, + : s)
    for (int i = 0; i < 100; i++) {
        s += a[i];
#pragma omp scan inclusive(s)
        b[i] = s;
    }
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+ : s) num_tasks(7)
    for (int i = 0; i < 100; i++)
        s += a[i];
#pragma omp parallel default(firstprivate)
    a[0] = last;
#pragma omp parallel master taskloop
    for (int i = 0; i < 100; i++)
        a[i]++;
    /* the `default` modifier is a plain reduction */
#pragma omp parallel for reduction(default, + : s)
    for (int i = 0; i < 100; i++)
        s += a[i];
    return s + last;
}
