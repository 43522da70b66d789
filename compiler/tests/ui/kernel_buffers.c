/* Library calls that hand a program buffer to the kernel go through the runtime, which
   makes the buffer's pages valid first (the demand-driven merge); `read` also syncs stdin.
   `puts` reads its string in user space first and is left alone. */
#include <stdio.h>
#include <unistd.h>

double grid[4096];

int main(void)
{
    FILE *f = fopen("grid.bin", "w+b");
#pragma omp parallel for
    for (int i = 0; i < 4096; i++)
        grid[i] = i;
    fwrite(grid, sizeof grid[0], 4096, f);
    rewind(f);
    size_t n = fread(grid, sizeof grid[0], 4096, f);
    ssize_t w = write(1, grid, 0);
    ssize_t r = read(0, grid, 0);
    ssize_t pw = pwrite(fileno(f), grid, 8, 0);
    ssize_t pr = pread(fileno(f), grid, 8, 0);
    puts("done");
    fclose(f);
    return (int)(n + w + r + pw + pr) == 0;
}
