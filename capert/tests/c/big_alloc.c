/* Allocates 8 MiB: with CAPE_ARENA_SIZE=1M the arena is exhausted: malloc returns NULL with
   ENOMEM, as the C library's does, and rank 0 says why once. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "capert.h"

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    errno = 0;
    char *p = __cape_malloc(8 << 20);
    if (!p) {
        printf("NULL %d\n", errno == ENOMEM);
        return 3;
    }
    memset(p, 1, 8 << 20);
    printf("allocated\n");
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
