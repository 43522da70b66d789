#pragma omp declare reduction(keep : int : omp_in)
int main(void)
{
    int s = 0, v[4] = {0}, *p = v;
#pragma omp parallel for reduction(+ : s[0:2]) reduction(+ : p[1:]) reduction(+ : v[2])
    for (int i = 0; i < 4; i++)
        v[i] = i;
    return s + *p;
}
