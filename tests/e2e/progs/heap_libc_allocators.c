/* Buffers from the C library's other allocators, written by parallel loops: reallocarray,
 * pvalloc, asprintf, vasprintf, getline and getdelim (from a file the program writes),
 * strndup, and realloc of a block the C library allocated (realpath). Each must be shared
 * like a block from malloc. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 3000

static long fill(char *p, int n, int salt)
{
#pragma omp parallel for
    for (int i = 0; i < n; i++)
        p[i] = (char)('a' + (i * 7 + salt) % 26);
    long h = 0;
    for (int i = 0; i < n; i++)
        h = h * 31 + p[i];
    return h;
}

static int vformat(char **out, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    int n = vasprintf(out, fmt, args);
    va_end(args);
    return n;
}

int main(void)
{
    long h = 0;
    char *a = reallocarray(NULL, N, 1);
    h += fill(a, N, 1);
    char *b = pvalloc(N);
    h += fill(b, N, 2);
    char *c = NULL;
    int cn = asprintf(&c, "%0*d", N, 0);
    h += fill(c, cn, 3);
    char *d = NULL;
    int dn = vformat(&d, "%0*d", N, 7);
    h += fill(d, dn, 4);
    char *e = strndup(c, N);
    h += fill(e, N, 5);
    FILE *f = tmpfile();
    for (int i = 0; i < N; i++)
        fputc('x', f);
    fputs("\nshort line\n", f);
    rewind(f);
    char *line = NULL;
    size_t cap = 0;
    long got = getline(&line, &cap, f);
    h += fill(line, (int)got - 1, 6);
    char *word = NULL;
    size_t wcap = 0;
    long wn = getdelim(&word, &wcap, ' ', f);
    h += fill(word, (int)wn, 7);
    fclose(f);
    char *g = realloc(realpath("/", NULL), N);
    h += fill(g, N, 8);
    printf("%d %d %ld %ld %ld\n", cn, dn, got, wn, h);
    free(a);
    free(b);
    free(c);
    free(d);
    free(e);
    free(line);
    free(word);
    free(g);
    return 0;
}
