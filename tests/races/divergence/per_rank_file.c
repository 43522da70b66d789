/* Input read from a file whose content differs between the ranks (here /proc/self/stat,
 * which names the process; on a cluster: a file local to each node).
 * expect: divergence in line before the region at line 24 */
#include <stdio.h>
#include <string.h>

char line[64];
int counts[16];

int main(void)
{
#pragma omp parallel for
    for (int i = 0; i < 16; i++)
        counts[i] = i;
    FILE *f = fopen("/proc/self/stat", "r");
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = 0;
        fclose(f);
    }
    char *space = strchr(line, ' ');
    if (space)
        *space = 0;
#pragma omp parallel for
    for (int i = 0; i < 16; i++)
        counts[i] += (int)strlen(line);
    printf("%d\n", counts[0] > 0);
    return 0;
}
