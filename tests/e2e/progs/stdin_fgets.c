/* stdin read through the `stdin` stream (fgets, fscanf, getc) is the same on every rank */
#include <stdio.h>

int main(void)
{
    char line[64];
    int n = 0, m = 0;
    if (fgets(line, sizeof line, stdin))
        sscanf(line, "%d", &n);
    if (fscanf(stdin, "%d", &m) != 1)
        m = -1;
    int c;
    long letters = 0;
    while ((c = getc(stdin)) != EOF)
        letters += c >= 'a' && c <= 'z';
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < n; i++)
        s += (long)i * m + letters;
    printf("n=%d m=%d letters=%ld s=%ld\n", n, m, letters, s);
    return 0;
}
