/* An atexit handler prints after main returns a non-zero status: its line must come out at
 * every rank count (the launcher ends the job at the first non-zero exit, so the handlers
 * have to run before the ranks leave together), and the status must be main's. */
#include <stdio.h>
#include <stdlib.h>

static int a[100];

static void bye(void)
{
    printf("atexit handler: a[99]=%d\n", a[99]);
}

int main(void)
{
    atexit(bye);
#pragma omp parallel for
    for (int i = 0; i < 100; i++)
        a[i] = i;
    printf("a[50]=%d\n", a[50]);
    return 5;
}
