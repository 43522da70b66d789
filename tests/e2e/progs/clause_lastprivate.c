/* lastprivate: after the loop the variable holds the value of the
 * sequentially last iteration, whichever thread ran it */
#include <stdio.h>

int main(void)
{
    int i, last = -1, sq = -1;
    double x = 0.0;
    char c = '?';
    int a[97];
#pragma omp parallel for lastprivate(last, x, c)
    for (i = 0; i < 97; i++) {
        last = i * 2;
        x = i * 0.5;
        c = (char)('a' + i % 26);
        a[i] = last;
    }
    printf("last=%d x=%.2f c=%c a[96]=%d\n", last, x, c, a[96]);

    /* the loop variable itself, with a chunked schedule whose last chunk is short */
    int k;
#pragma omp parallel for lastprivate(k, sq) schedule(static, 5)
    for (k = 3; k < 50; k += 4)
        sq = k * k;
    printf("k=%d sq=%d\n", k, sq);

    /* lastprivate and firstprivate on the same variable */
    int acc = 10;
#pragma omp parallel for firstprivate(acc) lastprivate(acc)
    for (i = 0; i < 20; i++)
        acc = acc + (i == 19 ? 5 : 0);
    printf("acc=%d\n", acc);
    return 0;
}
