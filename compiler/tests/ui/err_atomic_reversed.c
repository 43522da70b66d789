int x = 3;
int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 9; i++) {
#pragma omp atomic
        x = 10 - x;
    }
    return x;
}
