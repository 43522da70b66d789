/* A data race: every thread writes its own number to the same global. With
 * CAPE_CHECK=races the runtime must report it and exit non-zero. */
#include <stdio.h>
#include "capert.h"
#include "omp.h"

int shared_flag;
static void __cape_fn_0(void *__data) {
    (void)__data;
    shared_flag = 1000 + omp_get_thread_num();
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    __cape_parallel(__cape_fn_0, NULL, 0, 1, __CAPE_STACK_POINTER());
    printf("flag %d\n", shared_flag);
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
