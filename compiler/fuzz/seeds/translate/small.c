int a[100], s;
int main(void) {
    int i;
#pragma omp parallel for private(i) reduction(+:s) schedule(static, 4)
    for (i = 0; i < 100; i++) { a[i] = i; s += a[i]; }
#pragma omp parallel for
    for (long k = 99; k >= 0; k -= 3) a[k]++;
    return s;
}
