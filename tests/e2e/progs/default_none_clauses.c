/* `default(none)` accepts what gcc accepts: variables only the parallel's own `num_threads` and
   `if` read, the length of an array section reduced by a combined construct, and a variable
   only an inner construct's `private` copy uses */
#include <stdio.h>

int a[16], b[4];

int main(void)
{
    int n = 3, c = 1, len = 4, t = 0;
#pragma omp parallel num_threads(n) if(c) default(none) shared(a)
    {
#pragma omp for private(t)
        for (int i = 0; i < 16; i++) {
            t = i * 2;
            a[i] = t + 1;
        }
    }
#pragma omp parallel for default(none) shared(a) reduction(+ : b[0:len])
    for (int i = 0; i < 16; i++)
        b[i % 4] += a[i];
    printf("%d %d %d %d\n", b[0], b[1], b[2], b[3]);
    return 0;
}
