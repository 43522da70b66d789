/* Run with CAPE_TRACKER=mprotect (mprotect_kernel_reads.env): inside a parallel loop the kernel
 * writes into shared arrays (`pread`, `read`, `readv`, a large `fread` that the C library
 * passes to `read` directly, `recv`). The kernel does not fault on a write-protected page as
 * user code does: without the runtime making the pages writable first, each call fails with
 * EFAULT and the arrays keep their old contents. Every return value and a checksum are
 * printed. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define BLOCKS 8
#define PAGE 4096

static unsigned char by_pread[BLOCKS][PAGE];
static unsigned char by_read[BLOCKS][PAGE];
static unsigned char by_readv[BLOCKS][2][PAGE / 2];
static unsigned char by_fread[BLOCKS][3 * PAGE];
static unsigned char by_recv[BLOCKS][PAGE];
static long got[BLOCKS][5];

static const char *name = "mprotect_kernel_reads.dat";

int main(void)
{
    static unsigned char data[BLOCKS * 3 * PAGE];
    for (int i = 0; i < BLOCKS * 3 * PAGE; i++)
        data[i] = (unsigned char)(i * 7 + i / 4093);
    /* every rank writes the same bytes: no truncation, which a late rank would do under
       another rank's reads */
    int fd = open(name, O_WRONLY | O_CREAT, 0644);
    if (fd < 0 || pwrite(fd, data, sizeof data, 0) != (long)sizeof data)
        return 1;
    close(fd);

#pragma omp parallel for schedule(static)
    for (int b = 0; b < BLOCKS; b++) {
        int f = open(name, O_RDONLY);
        got[b][0] = (long)pread(f, by_pread[b], PAGE, (long)b * PAGE);
        lseek(f, (long)b * PAGE + 100, SEEK_SET);
        got[b][1] = (long)read(f, by_read[b], PAGE);
        struct iovec v[2] = {{by_readv[b][1], PAGE / 2}, {by_readv[b][0], PAGE / 2}};
        got[b][2] = (long)readv(f, v, 2);
        close(f);
        FILE *s = fopen(name, "rb");
        fseek(s, (long)b * 3 * PAGE, SEEK_SET);
        got[b][3] = (long)fread(by_fread[b], 1, 3 * PAGE, s);
        fclose(s);
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0) {
            got[b][4] = (long)send(pair[0], data + b * 17, PAGE, 0);
            got[b][4] += (long)recv(pair[1], by_recv[b], PAGE, MSG_WAITALL);
            close(pair[0]);
            close(pair[1]);
        }
    }

    unsigned long h = 14695981039346656037ul;
    for (int b = 0; b < BLOCKS; b++) {
        printf("block %d: pread %ld read %ld readv %ld fread %ld send+recv %ld\n", b, got[b][0],
               got[b][1], got[b][2], got[b][3], got[b][4]);
        for (int i = 0; i < PAGE; i++)
            h = (h ^ (by_pread[b][i] + 3u * by_read[b][i] + 5u * by_recv[b][i])) * 1099511628211ul;
        for (int i = 0; i < PAGE / 2; i++)
            h = (h ^ (by_readv[b][0][i] + 7u * by_readv[b][1][i])) * 1099511628211ul;
        for (int i = 0; i < 3 * PAGE; i++)
            h = (h ^ by_fread[b][i]) * 1099511628211ul;
    }
    printf("checksum %lu\n", h);
    unlink(name);
    return 0;
}
