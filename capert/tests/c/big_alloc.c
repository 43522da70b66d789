/* Allocates 8 MiB: with CAPE_ARENA_SIZE=1M the arena is exhausted (clear error, no crash). */
#include <stdio.h>
#include <string.h>
#include "capert.h"

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    char *p = __cape_malloc(8 << 20);
    memset(p, 1, 8 << 20);
    printf("allocated\n");
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
