int g = 1;
int t = 2;
#pragma omp threadprivate(t)
int main(void)
{
    int s = 0;
#pragma omp parallel default(none) copyin(g, t) shared(s)
    s += t;
    return s;
}
