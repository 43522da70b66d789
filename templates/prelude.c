/*@ prelude */
/* Translated by capecc: OpenMP regions call the capert runtime (capert.h). */
#include <capert.h>
int omp_get_thread_num(void);
/* The copies of data-sharing clauses (firstprivate in, lastprivate out); a check build
   (`--check=races`) makes them with a copy its race detector does not see: OpenMP orders them
   itself. */
#ifdef __CAPE_CHECK_BUILD
void *__cape_unchecked_copy(void *__cape_to, const void *__cape_from, unsigned long __cape_n);
#define __CAPE_CLAUSE_COPY __cape_unchecked_copy
#else
#define __CAPE_CLAUSE_COPY __builtin_memcpy
#endif
/* Around the declaration of a private copy, which has the name of the variable it stands for
   (-Wshadow) and may be only written (-Wunused-but-set-variable, silenced by its `unused`
   attribute): warnings the program built by gcc -fopenmp does not have. */
#define __CAPE_COPY_BEGIN _Pragma("GCC diagnostic push") \
    _Pragma("GCC diagnostic ignored \"-Wshadow\"")
#define __CAPE_COPY_END _Pragma("GCC diagnostic pop")
/*@ minmax_identities */
/* The lowest and highest value of an arithmetic type: identities of the max/min reductions. */
#define __CAPE_LOWEST(x) __extension__ _Generic((x), \
    _Bool: 0, \
    char: ((char)-1 < 0 ? -__SCHAR_MAX__ - 1 : 0), \
    signed char: -__SCHAR_MAX__ - 1, unsigned char: 0, \
    short: -__SHRT_MAX__ - 1, unsigned short: 0, \
    int: -__INT_MAX__ - 1, unsigned int: 0U, \
    long: -__LONG_MAX__ - 1L, unsigned long: 0UL, \
    long long: -__LONG_LONG_MAX__ - 1LL, unsigned long long: 0ULL, \
    float: -__builtin_inff(), double: -__builtin_inf(), long double: -__builtin_infl())
#define __CAPE_HIGHEST(x) __extension__ _Generic((x), \
    _Bool: 1, \
    char: ((char)-1 < 0 ? __SCHAR_MAX__ : __SCHAR_MAX__ * 2 + 1), \
    signed char: __SCHAR_MAX__, unsigned char: __SCHAR_MAX__ * 2 + 1, \
    short: __SHRT_MAX__, unsigned short: __SHRT_MAX__ * 2 + 1, \
    int: __INT_MAX__, unsigned int: __INT_MAX__ * 2U + 1U, \
    long: __LONG_MAX__, unsigned long: __LONG_MAX__ * 2UL + 1UL, \
    long long: __LONG_LONG_MAX__, unsigned long long: __LONG_LONG_MAX__ * 2ULL + 1ULL, \
    float: __builtin_inff(), double: __builtin_inf(), long double: __builtin_infl())
/*@ team_direct */
/* 1 while this thread's team is several threads of this rank that no other rank takes part in
   (nothing is merged): `atomic` updates and general `critical` sections are then made here,
   as libgomp makes them, instead of in the runtime. A check build keeps the runtime's path. */
extern int __cape_team_direct;
#ifdef __CAPE_CHECK_BUILD
#define __CAPE_TEAM_DIRECT() 0
#else
#define __CAPE_TEAM_DIRECT() __atomic_load_n(&__cape_team_direct, __ATOMIC_RELAXED)
#endif
/* libgomp's mutex: 0 free, 1 taken, 2 taken with sleepers; the runtime waits and wakes */
static __inline__ __attribute__((unused, always_inline)) void __cape_mutex_lock(unsigned int *__cape_w)
{
    unsigned int __cape_free = 0;
    if (!__atomic_compare_exchange_n(__cape_w, &__cape_free, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        __cape_mutex_wait(__cape_w);
}
static __inline__ __attribute__((unused, always_inline)) void __cape_mutex_unlock(unsigned int *__cape_w)
{
    if (__atomic_exchange_n(__cape_w, 0, __ATOMIC_RELEASE) == 2)
        __cape_mutex_wake(__cape_w);
}
/* a store inside a general critical section: reported to the runtime, which carries it to the
   other ranks (nothing to carry in a team this rank runs alone) */
static __inline__ __attribute__((unused, always_inline)) void *__cape_store_report(void *__cape_at, __SIZE_TYPE__ __cape_size)
{
    return __CAPE_TEAM_DIRECT() ? __cape_at : __cape_critical_store(__cape_at, __cape_size);
}
