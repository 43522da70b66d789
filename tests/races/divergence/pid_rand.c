/* rand() seeded with the process id: a different sequence on every rank.
 * expect: divergence in noise before the region at line 19 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 64
double noise[N], out[N];

int main(void)
{
    srand((unsigned)getpid());
    for (int i = 0; i < N; i++)
        noise[i] = rand() % 1000 / 1000.0;
    /* the heap and the other globals still agree: the first differing object is noise */
    double *w = malloc(N * sizeof *w);
    for (int i = 0; i < N; i++)
        w[i] = 1.0;
#pragma omp parallel for
    for (int i = 0; i < N; i++)
        out[i] = noise[i] * w[i];
    printf("%d\n", out[0] >= 0.0);
    free(w);
    return 0;
}
