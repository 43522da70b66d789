/* atomic_plain_order.c under the demand-driven merge (CAPE_MERGE=lazy in the .env file). */
#include "atomic_plain_order.c"
