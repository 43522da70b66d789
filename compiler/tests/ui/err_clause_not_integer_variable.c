/* integer clauses whose argument is a variable of another type (gcc: "expected integer
   expression") */
int a[9];

int main(void)
{
    double d = 2;
    int *p = 0;
    int n = 3;
#pragma omp parallel for num_threads(d)
    for (int i = 0; i < 9; i++)
        a[i] = i;
#pragma omp parallel for schedule(static, p)
    for (int i = 0; i < 9; i++)
        a[i] = i;
#pragma omp parallel for num_threads(n) schedule(dynamic, n - 1)
    for (int i = 0; i < 9; i++)
        a[i] = i;
    return 0;
}
