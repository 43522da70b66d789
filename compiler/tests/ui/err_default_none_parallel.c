int main(void)
{
    int n = 4, s = 0;
#pragma omp parallel default(none) shared(s)
    {
        s += n;
    }
    return s;
}
