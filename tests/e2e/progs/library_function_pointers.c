/* Addresses of C library functions stored in shared memory inside a region and called on
   other ranks after the join: every rank must see the same address for `sin` (the executable
   gives such functions one fixed address; the library itself lies elsewhere in each process).
   Pointers come from the program's own code, from initialised globals and from a library
   built with plain gcc. */
// e2e: plain-helper: plain/library_pointers.c object
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 24

extern int (*plain_compare)(const char *, const char *);
double (*plain_pick(int which))(double);

typedef double (*unary)(double);
typedef int (*string_order)(const char *, const char *);
typedef size_t (*string_length)(const char *);
typedef void (*sorter)(void *, size_t, size_t, int (*)(const void *, const void *));

unary ops[SLOTS];
string_order orders[SLOTS];
string_length lengths[SLOTS];
sorter sorters[SLOTS];
unary default_op = log1p;
static string_order current_order;

static const char *words[] = {"pear", "fig", "apple", "kiwi", "banana", "cherry", "date", "lime"};

static int by_current_order(const void *a, const void *b)
{
    return current_order(*(const char *const *)a, *(const char *const *)b);
}

int main(void)
{
    /* each slot is written by one thread, so by one rank: the other ranks call it below */
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < SLOTS; i++) {
        switch (i % 5) {
        case 0: ops[i] = sin; break;
        case 1: ops[i] = cos; break;
        case 2: ops[i] = sqrt; break;
        case 3: ops[i] = plain_pick(i); break;
        default: ops[i] = default_op; break;
        }
        orders[i] = i % 2 ? strcmp : plain_compare;
        lengths[i] = strlen;
        sorters[i] = qsort;
    }

    double sum = 0;
    for (int i = 0; i < SLOTS; i++)
        sum += ops[i](0.25 + i * 0.125);
    printf("sum of the stored functions %.12f\n", sum);

    /* inside a region too, every thread calls what its neighbour stored */
    double results[SLOTS];
    long total_length = 0;
#pragma omp parallel for reduction(+ : total_length) schedule(static, 1)
    for (int i = 0; i < SLOTS; i++) {
        int other = (i + 1) % SLOTS;
        results[i] = ops[other](1.0 + i);
        total_length += (long)lengths[other](words[i % 8]);
    }
    double in_region = 0;
    for (int i = 0; i < SLOTS; i++)
        in_region += results[i];
    printf("in a region %.12f, lengths %ld\n", in_region, total_length);

    for (int k = 0; k < SLOTS; k += 7) {
        const char *sorted[8];
        memcpy(sorted, words, sizeof words);
        current_order = orders[k];
        sorters[(k + 3) % SLOTS](sorted, 8, sizeof sorted[0], by_current_order);
        const char *key = "kiwi";
        const char **found = bsearch(&key, sorted, 8, sizeof sorted[0], by_current_order);
        printf("order %d: %s %s %s ... %s, kiwi at %ld\n", k, sorted[0], sorted[1], sorted[2], sorted[7],
               found ? (long)(found - sorted) : -1L);
    }
    return 0;
}
