/* atomic_plain_order.c with two threads per rank (OMP_NUM_THREADS=2 in the .env file): the
 * updates go through the rank's thread logs. */
#include "atomic_plain_order.c"
