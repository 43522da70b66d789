/* omp_set_lock inside a parallel region of more than one rank is refused with one clear error;
 * outside regions (and in a team of one) locks work as flags. */
#include <stdio.h>
#include "capert.h"
#include "omp.h"

omp_lock_t lock;
long total;

static void body(void *data) {
    (void)data;
    omp_set_lock(&lock);
    total += 1;
    omp_unset_lock(&lock);
}

int __cape_user_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    omp_init_lock(&lock);
    omp_set_lock(&lock);
    int held = !omp_test_lock(&lock);
    omp_unset_lock(&lock);
    __cape_parallel(body, NULL, 1, 1, __CAPE_STACK_POINTER());
    printf("held %d total %ld\n", held, total);
    fflush(stdout);
    __cape_parallel(body, NULL, 0, 1, __CAPE_STACK_POINTER());
    printf("total %ld\n", total);
    return 0;
}

int main(int argc, char **argv, char **envp) {
    return __cape_start(argc, argv, envp, __cape_user_main);
}
