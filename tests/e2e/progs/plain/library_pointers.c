/* A library built with plain gcc (position-independent by default): it hands out and holds
   addresses of C library functions (tests/e2e/progs/library_function_pointers.c). */
#include <math.h>
#include <string.h>

int (*plain_compare)(const char *, const char *) = strcmp;

double (*plain_pick(int which))(double)
{
    return which % 2 ? tan : exp;
}
