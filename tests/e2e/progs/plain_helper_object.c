/* Globals of a library built without capecc (plain gcc -c, linked as an object file) are
   shared memory too: writes to them inside regions, directly and through the library's own
   code, are merged like the program's. */
// e2e: plain-helper: plain/counters.c object
#include <stdio.h>

extern long plain_counts[64];
extern int plain_scale;
void plain_count(int i);
long plain_calls_of(int slot);

int main(void)
{
#pragma omp parallel for
    for (int slot = 0; slot < 64; slot++)
        plain_count(slot);
    plain_scale = 5;
#pragma omp parallel for
    for (int slot = 0; slot < 64; slot++)
        plain_counts[slot] += plain_scale * slot;
    long total = 0, calls = 0;
    for (int slot = 0; slot < 64; slot++) {
        total += plain_counts[slot] * (slot + 1);
        calls += plain_calls_of(slot) * (slot + 1);
    }
    printf("total %ld calls %ld first %ld last %ld\n", total, calls, plain_counts[0], plain_counts[63]);
    return 0;
}
