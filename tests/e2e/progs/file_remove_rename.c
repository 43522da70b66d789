/* Sequential code that removes, renames, truncates a file or makes and removes a directory
 * does it once under OpenMP: every rank must see the file system as that one call leaves it
 * (a rank still about to read the file finds it; no second `remove` fails, no second `mkdir`
 * finds the directory) and get the same result and errno. Each rank's share of a loop writes
 * what its calls returned, so a rank that saw something else shows in the merged array. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

int seen[64];

static void spread(int code, int *bad)
{
#pragma omp parallel for
    for (int i = 0; i < 64; i++)
        seen[i] = code;
    for (int i = 0; i < 64; i++)
        *bad |= seen[i];
}

int main(void)
{
    int bad = 0;
    long total = 0;
    for (int round = 0; round < 40; round++) {
        FILE *f = fopen("file_remove.tmp", "w");
        fprintf(f, "%d\n", round);
        fclose(f);
        int renamed = rename("file_remove.tmp", "file_remove2.tmp");
        f = fopen("file_remove2.tmp", "r");
        int v = -1;
        if (f) {
            if (fscanf(f, "%d", &v) != 1)
                v = -2;
            fclose(f);
        }
        total += v;
        int removed = remove("file_remove2.tmp");
        errno = 0;
        int again = remove("file_remove2.tmp");
        int again_errno = errno;
        spread((renamed != 0) | (v != round) << 1 | (removed != 0) << 2 | (again != -1) << 3 |
                   (again_errno != ENOENT) << 4,
               &bad);
    }
    printf("read back %ld, bad %d\n", total, bad);

    FILE *f = fopen("file_remove.tmp", "w");
    fputs("0123456789", f);
    fclose(f);
    int cut = truncate("file_remove.tmp", 3);
    struct stat st;
    long size = stat("file_remove.tmp", &st) == 0 ? (long)st.st_size : -1;
    int unlinked = unlink("file_remove.tmp");
    int made = mkdir("file_remove.dir", 0700);
    errno = 0;
    int made_again = mkdir("file_remove.dir", 0700);
    int made_errno = errno;
    int gone = rmdir("file_remove.dir");
    bad = 0;
    spread((cut != 0) | (size != 3) << 1 | (unlinked != 0) << 2 | (made != 0) << 3 |
               (made_again != -1) << 4 | (made_errno != EEXIST) << 5 | (gone != 0) << 6,
           &bad);
    printf("truncate %d size %ld unlink %d mkdir %d %d (%s) rmdir %d, bad %d\n", cut, size,
           unlinked, made, made_again, made_errno == EEXIST ? "EEXIST" : "other", gone, bad);
    return 0;
}
