/* exit() inside a parallel region ends the whole program with its status, whichever thread
   (rank) calls it; the others must not wait for it forever */
#include <stdio.h>
#include <stdlib.h>

int a[16];

int main(int argc, char **argv)
{
    (void)argv;
    printf("start\n");
#pragma omp parallel for
    for (int i = 0; i < 16; i++) {
        if (i == 13 && argc == 1)
            exit(5);
        a[i] = i;
    }
    printf("not reached %d\n", a[3]);
    return 0;
}
