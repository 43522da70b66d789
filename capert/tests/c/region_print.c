/* Output: sequential output appears once, output inside a region from every thread. */
#include <stdio.h>
#include "capert.h"
#include "omp.h"

static void __cape_fn_0(void *__data) {
    (void)__data;
    printf("hello from thread %d of %d\n", omp_get_thread_num(), omp_get_num_threads());
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    printf("before\n");
    __cape_parallel(__cape_fn_0, NULL, 0, 1, __CAPE_STACK_POINTER());
    printf("after, in parallel: %d\n", omp_in_parallel());
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
