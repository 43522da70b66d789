/* writes that leave the bytes as they were: stores of the same value and
 * write-then-restore; mixed with real changes on the same pages */
#include <stdio.h>
#include <string.h>

int data[4096];
char flags[4096];

int main(void)
{
    for (int i = 0; i < 4096; i++) {
        data[i] = i;
        flags[i] = (char)(i % 3);
    }
#pragma omp parallel for
    for (int i = 0; i < 4096; i++) {
        data[i] = data[i];            /* same value */
        int keep = data[i];
        data[i] = -1;                 /* temporary */
        data[i] = keep;               /* restored */
        if (i % 100 == 0)
            data[i] = keep + 1;       /* real change */
        if (flags[i] == 0)
            flags[i] = 0;             /* store of zero over zero */
        else if (i % 2)
            flags[i] = 9;
    }
    unsigned long h = 0;
    for (int i = 0; i < 4096; i++)
        h = h * 31 + (unsigned)data[i] + (unsigned char)flags[i];
    printf("hash=%lu data[100]=%d data[101]=%d flags[5]=%d\n", h, data[100], data[101], flags[5]);
    return 0;
}
