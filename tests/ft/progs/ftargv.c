/* The program's command line changed in 200 parallel regions: each region shifts every letter
 * of argv[1] (a parallel loop over its bytes), every 25th also rotates the pointers argv[1..3]
 * in a `single` block; the strings every 40 regions. argv is shared memory (the runtime's copy
 * at the top of the user stack), so a restart from the log rebuilds it. With a file
 * `ftargv.stop` holding K in the working directory the program exits after region K. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* read after every region: a value kept in a local would come back with a snapshot's stack */
static int stop_after(int r)
{
    int k = -1;
    FILE *f = fopen("ftargv.stop", "r");
    if (f) {
        if (fscanf(f, "%d", &k) != 1)
            k = -1;
        fclose(f);
    }
    return k == r;
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    for (int r = 1; r <= 200; r++) {
        char *s = argv[1];
        int n = (int)strlen(s);
#pragma omp parallel
        {
#pragma omp for
            for (int i = 0; i < n; i++)
                if (s[i] >= 'a' && s[i] <= 'z')
                    s[i] = (char)('a' + (s[i] - 'a' + i + r) % 26);
            if (r % 25 == 0) {
#pragma omp single
                {
                    char *t = argv[1];
                    argv[1] = argv[2];
                    argv[2] = argv[3];
                    argv[3] = t;
                }
            }
        }
        if (r % 40 == 0)
            printf("region %d: %s %s %s\n", r, argv[1], argv[2], argv[3]);
        if (stop_after(r)) {
            fflush(stdout);
            exit(3);
        }
    }
    return 0;
}
