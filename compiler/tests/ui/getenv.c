/* getenv in user code goes through the runtime, which records what sequential code read (a
 * checkpoint restart refuses another environment); a function the user names getenv does not. */
#include <stdio.h>
#include <stdlib.h>

static const char *lookup(const char *name)
{
    return getenv(name);
}

int main(void)
{
    const char *n = getenv("N");
    int size = n ? atoi(n) : 8;
    int sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < size; i++)
        sum += i;
    printf("%d %s\n", sum, lookup("HOME") ? "home" : "no home");
    return 0;
}
