/* A program that defines its own getenv keeps calling it. */
#include <stdio.h>

static char value[] = "4";

char *getenv(const char *name)
{
    (void)name;
    return value;
}

int main(void)
{
    int n = getenv("N")[0] - '0';
    int sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < n; i++)
        sum += i;
    printf("%d\n", sum);
    return 0;
}
