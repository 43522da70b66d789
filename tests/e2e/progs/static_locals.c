/* static locals: function-scope statics are shared; written by the loop,
 * in the function that holds them and in a function called from the loop */
#include <stdio.h>

static int *table_of_counts(void)
{
    static int counts[64];
    return counts;
}

static void note(int i)
{
    static char seen[128];
    seen[i] = 1;
    if (i == 127) {
        int n = 0;
        for (int k = 0; k < 128; k++)
            n += seen[k];
        (void)n;
    }
}

static int summarise(void)
{
    static int calls = 0;
    calls++;
    int *c = table_of_counts();
    int s = 0;
    for (int k = 0; k < 64; k++)
        s += c[k] * (k + 1);
    return s * 10 + calls;
}

int main(void)
{
    static double weights[64];
    int *c = table_of_counts();
#pragma omp parallel for
    for (int i = 0; i < 64; i++) {
        c[i] = i % 5;
        weights[i] = i * 0.5;
        note(i);
        note(i + 64);
    }
    int first = summarise();
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        c[i] += (int)weights[63 - i];
    printf("%d %d\n", first, summarise());
    return 0;
}
