/* The demand-driven merge (run with CAPE_MERGE=lazy, see lazy_syscalls.env): system calls
 * given buffers in pages another rank wrote last (the kernel does not fault on them as user
 * code does): writev/readv through a pipe, pwritev/preadv on a temporary file, send/recv,
 * sendto/recvfrom and sendmsg/recvmsg (the message header, its iovecs and its control buffer
 * in such pages too) on a socket pair. Before each, a parallel loop rewrites both arrays, each
 * rank its block of whole pages, so rank 0 holds the last block invalid. Every return value
 * and a checksum of the arrays are printed. */
#include <stdio.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#define PAGES 48
#define PAGE 4096

static unsigned char data[PAGES][PAGE] __attribute__((aligned(PAGE)));
static unsigned char back[PAGES][PAGE] __attribute__((aligned(PAGE)));

static void fill(int round)
{
#pragma omp parallel for schedule(static)
    for (int p = 0; p < PAGES; p++)
        for (int i = 0; i < PAGE; i++) {
            data[p][i] = (unsigned char)(p * 31 + i * 7 + round);
            back[p][i] = (unsigned char)(p + i + round * 3);
        }
}

static unsigned long checksum(void)
{
    unsigned long h = 14695981039346656037ul;
    for (int p = 0; p < PAGES; p++)
        for (int i = 0; i < PAGE; i += 8)
            h = (h ^ (data[p][i] + 3u * back[p][i])) * 1099511628211ul;
    return h;
}

int main(void)
{
    /* writev from the first and the last block, readv into other pages of both */
    fill(1);
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    struct iovec out[2] = {{data[1], 2 * PAGE}, {data[PAGES - 3], 2 * PAGE}};
    struct iovec in[2] = {{back[3], 2 * PAGE}, {back[PAGES - 6], 2 * PAGE}};
    long w = (long)writev(fds[1], out, 2);
    long r = (long)readv(fds[0], in, 2);
    printf("writev %ld readv %ld checksum %lu\n", w, r, checksum());

    /* pwritev/preadv on a temporary file (one per rank) */
    fill(2);
    FILE *tmp = tmpfile();
    if (!tmp)
        return 1;
    struct iovec fout[1] = {{data[PAGES - 4], 3 * PAGE}};
    struct iovec fin[2] = {{back[PAGES - 9], PAGE}, {back[PAGES - 2], 2 * PAGE}};
    w = (long)pwritev(fileno(tmp), fout, 1, 100);
    r = (long)preadv(fileno(tmp), fin, 2, 100);
    fclose(tmp);
    printf("pwritev %ld preadv %ld checksum %lu\n", w, r, checksum());

    /* send/recv on a stream socket pair */
    fill(3);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
    w = (long)send(sv[0], data[PAGES - 5], 2 * PAGE, 0);
    r = (long)recv(sv[1], back[PAGES - 3], 2 * PAGE, MSG_WAITALL);
    printf("send %ld recv %ld checksum %lu\n", w, r, checksum());

    /* sendto/recvfrom: the same pair, one page */
    fill(4);
    w = (long)sendto(sv[1], data[PAGES - 1], PAGE, 0, NULL, 0);
    r = (long)recvfrom(sv[0], back[PAGES - 7], PAGE, MSG_WAITALL, NULL, NULL);
    printf("sendto %ld recvfrom %ld checksum %lu\n", w, r, checksum());

    /* sendmsg/recvmsg: headers, iovec arrays and buffers all in pages rank 0 holds invalid */
    fill(5);
    struct msghdr *hout = (struct msghdr *)data[PAGES - 2];
    struct msghdr *hin = (struct msghdr *)back[PAGES - 4];
    struct iovec *vout = (struct iovec *)(data[PAGES - 2] + 256);
    struct iovec *vin = (struct iovec *)(back[PAGES - 4] + 256);
#pragma omp parallel for schedule(static)
    for (int p = 0; p < PAGES; p++) {
        if (p == PAGES - 2) {
            *hout = (struct msghdr){.msg_iov = vout, .msg_iovlen = 2};
            vout[0] = (struct iovec){data[PAGES - 6], PAGE};
            vout[1] = (struct iovec){data[PAGES - 1] + 100, 500};
        }
        if (p == PAGES - 4) {
            *hin = (struct msghdr){.msg_iov = vin, .msg_iovlen = 2};
            vin[0] = (struct iovec){back[PAGES - 1] + 8, 500};
            vin[1] = (struct iovec){back[PAGES - 8], PAGE};
        }
    }
    w = (long)sendmsg(sv[0], hout, 0);
    r = (long)recvmsg(sv[1], hin, MSG_WAITALL);
    printf("sendmsg %ld recvmsg %ld flags %d checksum %lu\n", w, r, hin->msg_flags, checksum());
    close(sv[0]);
    close(sv[1]);
    close(fds[0]);
    close(fds[1]);
    return 0;
}
