/* command-line arguments drive the loop */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10;
    const char *word = argc > 2 ? argv[2] : "none";
    size_t len = strlen(word);
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < n; i++)
        sum += (long)word[i % len] * (i + 1);
    printf("argc=%d n=%d word=%s sum=%ld\n", argc, n, word, sum);
    return 0;
}
