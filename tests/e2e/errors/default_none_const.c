/* `default(none)`: a `const` variable is not predetermined shared (gcc 9 and later refuse it
   unlisted too) */
// expect-error: 13
#include <stdio.h>

int a[16];

int main(void)
{
    const int k = 3;
#pragma omp parallel for default(none) shared(a)
    for (int i = 0; i < 16; i++)
        a[i] = i * k;
    printf("%d\n", a[15]);
    return 0;
}
