/* byte-level writes: neighbouring bytes of one char array written by
 * different threads (schedule(static, 1) interleaves them) */
#include <stdio.h>
#include <string.h>

char text[301];

int main(void)
{
    char local[64];
    memset(text, '.', 300);
    memset(local, '-', sizeof local);
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 300; i++)
        if (i % 3 != 2)
            text[i] = (char)('A' + i % 26);
#pragma omp parallel for schedule(static, 1)
    for (int i = 0; i < 63; i++)
        local[i] = (char)('a' + (i * 7) % 26);
    local[63] = '\0';
    /* a byte that goes back to its old value must stay untouched */
#pragma omp parallel for schedule(static, 2)
    for (int i = 0; i < 300; i += 5)
        text[i] = text[i];
    /* writing zero bytes (a value that often equals "unchanged") */
#pragma omp parallel for schedule(static, 3)
    for (int i = 10; i < 20; i++)
        text[i * 10] = '\0';
    for (int i = 0; i < 300; i++)
        if (text[i] == '\0')
            text[i] = '0';
    text[300] = '\0';
    printf("%s\n%s\n", text, local);
    return 0;
}
