/* ftinput.c - a program whose result depends on input that sequential code keeps in local
 * variables, for tests/ft/crafted.sh: N from stdin and FTINPUT_SCALE from the environment
 * (default 1). 20 iterations, each one parallel loop over a global array, then its sum.
 * ftinput_pwned() is never called: a forged checkpoint log that redirects printf to it would
 * show here. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define M 64

long acc[M];

void ftinput_pwned(void)
{
    static const char msg[] = "PWNED: code chosen by the checkpoint log ran\n";
    write(2, msg, sizeof msg - 1);
    _exit(42);
}

int main(void)
{
    long n = 0;
    if (scanf("%ld", &n) != 1) {
        fprintf(stderr, "ftinput: expected a number on stdin\n");
        return 2;
    }
    const char *text = getenv("FTINPUT_SCALE");
    long scale = text ? atol(text) : 1;
    for (int it = 1; it <= 20; it++) {
#pragma omp parallel for schedule(static)
        for (int i = 0; i < M; i++)
            acc[i] += (long)(i + it) * n * scale;
        long sum = 0;
        for (int i = 0; i < M; i++)
            sum += acc[i];
        printf("iteration %d: %ld\n", it, sum);
    }
    return 0;
}
