/* A library built with plain gcc, not capecc: its globals are written inside parallel regions
   of the programs that link it (tests/e2e/progs/plain_helper_*.c). */
long plain_counts[64];
int plain_scale = 3;
static long plain_calls[64];

/* each slot belongs to one call: no two threads write the same element */
void plain_count(int slot)
{
    for (int k = 0; k < 16; k++)
        plain_counts[slot] += (long)(slot + 64 * k) * plain_scale;
    plain_calls[slot] += 1;
}

long plain_calls_of(int slot)
{
    return plain_calls[slot];
}
