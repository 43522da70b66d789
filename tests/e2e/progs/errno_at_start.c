/* C requires `errno` to be 0 when `main` starts; the MPI start-up under capecc set it (to 2,
 * 17, 22 or 98, varying between runs), so a first-line `perror` printed garbage. */
#include <errno.h>
#include <stdio.h>

int main(void)
{
    int at_start = errno;
    int a[8];
#pragma omp parallel for
    for (int i = 0; i < 8; i++)
        a[i] = i;
    printf("errno at start: %d, a[7]=%d\n", at_start, a[7]);
    return 0;
}
