/* `atomic capture` of a 128-bit variable with an operand beyond `long long`: the ranks' counter
   of captures holds 64 bits, so the run stops with an error rather than capture a wrong value */
// expect-runtime-error: outside the range of `long long`
#include <stdio.h>

__int128 x = 0;

int main(void)
{
    __int128 v = 0;
#pragma omp parallel
    {
        __int128 e = (__int128)1 << 70;
#pragma omp atomic capture
        v = x += e;
    }
    printf("%d\n", (int)(v >> 70));
    return 0;
}
