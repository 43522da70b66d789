/* Translated by capecc: OpenMP regions call the capert runtime (capert.h). */

#define __CAPE_GENERATED_BEGIN _Pragma("GCC diagnostic push") \
    _Pragma("GCC diagnostic ignored \"-Wpragmas\"") \
    _Pragma("GCC diagnostic ignored \"-Wcast-qual\"") \
    _Pragma("GCC diagnostic ignored \"-Wmissing-declarations\"") \
    _Pragma("GCC diagnostic ignored \"-Wdeclaration-after-statement\"") \
    _Pragma("GCC diagnostic ignored \"-Wcast-align\"") \
    _Pragma("GCC diagnostic ignored \"-Wswitch-default\"") \
    _Pragma("GCC diagnostic ignored \"-Wdouble-promotion\"") \
    _Pragma("GCC diagnostic ignored \"-Wunused-macros\"") \
    _Pragma("GCC diagnostic ignored \"-Wredundant-decls\"") \
    _Pragma("GCC diagnostic ignored \"-Wnested-externs\"")
__CAPE_GENERATED_BEGIN
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
/* capecc: combine functions of `atomic`/`critical` updates. An update `x op= e` computes in C's
   types, `x = (T)(x op e)`, with `e` kept in the type of `x op e`, so there is a combiner for
   each (type of x, type of the operand). When the operand is wider than x (`int x; x += 0.5`) it
   travels in a shared scratch word updated just before x (the runtime logs operands of x's size
   and replays every log in program order, so the two records stay together). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wunknown-warning-option"
#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#pragma GCC diagnostic ignored "-Wbool-compare"
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wparentheses"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wbool-operation"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wfloat-conversion"
#pragma GCC diagnostic ignored "-Wfloat-equal"
#pragma GCC diagnostic ignored "-Wshift-negative-value"
#pragma GCC diagnostic ignored "-Wtautological-compare"
#pragma GCC diagnostic ignored "-Wpedantic"
/* the compare-and-swap of a size x does not have is dead code, which gcc -O0 still checks */
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Warray-bounds"
static long double __cape_atomic_wide[2];
static __attribute__((unused)) void __cape_combine_wide(void *__cape_inout, const void *__cape_in)
{ __builtin_memcpy(__cape_inout, __cape_in, sizeof __cape_atomic_wide); }
/* The scratch word holds one update's operand from its write to the update of x: the threads
   of this rank take turns at it under this file's lock (also in a team of several ranks, where
   both go to the runtime's log one after the other). */
static __attribute__((unused)) unsigned int __cape_atomic_wide_lock;
/* In a team this rank runs alone (`__CAPE_TEAM_DIRECT()`: nothing is merged) an update is
   made here, as libgomp makes it: one locked instruction for `+ - & | ^` on an integer x of
   its operand's type (`__CAPE_FETCH_*`), else one compare-and-swap loop on x. */
#define __CAPE_ATOMIC_CAS(U) { \
    U __cape_old = __atomic_load_n((U *)__cape_x, __ATOMIC_RELAXED), __cape_new; \
    do { \
        __builtin_memcpy(__cape_tmp, &__cape_old, sizeof(U)); \
        __cape_combine(__cape_tmp, __cape_e); \
        __builtin_memcpy(&__cape_new, __cape_tmp, sizeof(U)); \
    } while (!__atomic_compare_exchange_n((U *)__cape_x, &__cape_old, __cape_new, 1, \
                                          __ATOMIC_RELAXED, __ATOMIC_RELAXED)); \
    return 1; }
/* 0: x has no compare-and-swap of its size and alignment */
static __inline__ __attribute__((unused, always_inline)) int __cape_atomic_cas(void *__cape_x,
    __SIZE_TYPE__ __cape_xsize, const void *__cape_e, void (*__cape_combine)(void *, const void *))
{
    unsigned char __cape_tmp[8] __attribute__((aligned(8)));
    if ((__cape_xsize != 1 && __cape_xsize != 2 && __cape_xsize != 4 && __cape_xsize != 8)
        || (__UINTPTR_TYPE__)__cape_x % __cape_xsize != 0)
        return 0;
    switch (__cape_xsize) {
    case 1: __CAPE_ATOMIC_CAS(unsigned char)
    case 2: __CAPE_ATOMIC_CAS(unsigned short)
    case 4: __CAPE_ATOMIC_CAS(unsigned int)
    default: __CAPE_ATOMIC_CAS(unsigned long long)
    }
}
static __attribute__((unused, noinline)) void __cape_atomic_apply_slow(void *__cape_x,
    __SIZE_TYPE__ __cape_xsize, const void *__cape_e, __SIZE_TYPE__ __cape_esize,
    void (*__cape_combine)(void *, const void *), int __cape_folds)
{
    unsigned char __cape_buf[sizeof __cape_atomic_wide] __attribute__((aligned(16))) = { 0 };
    const int __cape_wide = __cape_esize > __cape_xsize;
    if (__cape_esize > sizeof __cape_buf || __cape_xsize > sizeof __cape_buf)
        return;
    if (__cape_wide)
        __cape_mutex_lock(&__cape_atomic_wide_lock);
    if (__cape_wide && __CAPE_TEAM_DIRECT()) {
        __builtin_memcpy(__cape_atomic_wide, __cape_e, __cape_esize);
        if (__cape_atomic_cas(__cape_x, __cape_xsize, __cape_e, __cape_combine)) {
            __cape_mutex_unlock(&__cape_atomic_wide_lock);
            return;
        }
    }
    __builtin_memcpy(__cape_buf, __cape_e, __cape_esize);
    if (__cape_wide) {
        __cape_atomic_update(__cape_atomic_wide, __cape_buf, sizeof __cape_buf, __cape_combine_wide);
        __builtin_memset(__cape_buf, 0, sizeof __cape_buf);
    }
    if (__cape_folds)
        __cape_atomic_update_folding(__cape_x, __cape_buf, __cape_xsize, __cape_combine);
    else
        __cape_atomic_update(__cape_x, __cape_buf, __cape_xsize, __cape_combine);
    if (__cape_wide)
        __cape_mutex_unlock(&__cape_atomic_wide_lock);
}
static __inline__ __attribute__((unused, always_inline)) void __cape_atomic_apply(void *__cape_x,
    __SIZE_TYPE__ __cape_xsize, const void *__cape_e, __SIZE_TYPE__ __cape_esize,
    void (*__cape_combine)(void *, const void *), int __cape_folds)
{
    if (__cape_esize <= __cape_xsize && __CAPE_TEAM_DIRECT()
        && __cape_atomic_cas(__cape_x, __cape_xsize, __cape_e, __cape_combine))
        return;
    __cape_atomic_apply_slow(__cape_x, __cape_xsize, __cape_e, __cape_esize, __cape_combine,
                             __cape_folds);
}
/* the integer types (not _Bool) whose `+ - & | ^` are one locked instruction */
#define __CAPE_INT_LIKE(e) __extension__ _Generic((e), char: 1, signed char: 1, unsigned char: 1, \
    short: 1, unsigned short: 1, int: 1, unsigned int: 1, long: 1, unsigned long: 1, long long: 1, \
    unsigned long long: 1, default: 0)
#define __CAPE_FETCH_SIZED(name, x, v) (sizeof *(x) == 1 \
    ? (void)__atomic_##name((unsigned char *)(x), (unsigned char)(v), __ATOMIC_RELAXED) \
    : sizeof *(x) == 2 ? (void)__atomic_##name((unsigned short *)(x), (unsigned short)(v), __ATOMIC_RELAXED) \
    : sizeof *(x) == 4 ? (void)__atomic_##name((unsigned int *)(x), (unsigned int)(v), __ATOMIC_RELAXED) \
    : (void)__atomic_##name((unsigned long long *)(x), (unsigned long long)(v), __ATOMIC_RELAXED))
/* 1 when the update was made (an aligned integer x of 1 to 8 bytes, an operand of its type) */
#define __CAPE_FETCH(name, x, v) (__CAPE_INT_LIKE(*(x)) && __CAPE_INT_LIKE(v) \
    && sizeof *(x) == sizeof(v) && sizeof *(x) <= 8 && __CAPE_TEAM_DIRECT() \
    && (__UINTPTR_TYPE__)(x) % sizeof *(x) == 0 ? (__CAPE_FETCH_SIZED(name, x, v), 1) : 0)
/* 1 when updates of x by this operation may be combined before the merge (x OP a OP b as
   x OP (a OP b)): associative and commutative on an integer x, the operand of x's type */
#define __CAPE_FOLDS(x, v) (__CAPE_INT_LIKE(*(x)) \
    && __builtin_types_compatible_p(__typeof__(*(x)), __typeof__(v)))
#define __CAPE_FOLDS_ADD(x, v) __CAPE_FOLDS(x, v)
#define __CAPE_FOLDS_MUL(x, v) __CAPE_FOLDS(x, v)
#define __CAPE_FOLDS_AND(x, v) __CAPE_FOLDS(x, v)
#define __CAPE_FOLDS_OR(x, v) __CAPE_FOLDS(x, v)
#define __CAPE_FOLDS_XOR(x, v) __CAPE_FOLDS(x, v)
#define __CAPE_FOLDS_MAX(x, v) __CAPE_FOLDS(x, v)
#define __CAPE_FOLDS_MIN(x, v) __CAPE_FOLDS(x, v)
#define __CAPE_FOLDS_SUB(x, v) 0
#define __CAPE_FOLDS_DIV(x, v) 0
#define __CAPE_FOLDS_SHL(x, v) 0
#define __CAPE_FOLDS_SHR(x, v) 0
#define __CAPE_FETCH_ADD(x, v) __CAPE_FETCH(fetch_add, x, v)
#define __CAPE_FETCH_SUB(x, v) __CAPE_FETCH(fetch_sub, x, v)
#define __CAPE_FETCH_AND(x, v) __CAPE_FETCH(fetch_and, x, v)
#define __CAPE_FETCH_OR(x, v) __CAPE_FETCH(fetch_or, x, v)
#define __CAPE_FETCH_XOR(x, v) __CAPE_FETCH(fetch_xor, x, v)
#define __CAPE_FETCH_MUL(x, v) 0
#define __CAPE_FETCH_DIV(x, v) 0
#define __CAPE_FETCH_MAX(x, v) 0
#define __CAPE_FETCH_MIN(x, v) 0
#define __CAPE_FETCH_SHL(x, v) 0
#define __CAPE_FETCH_SHR(x, v) 0
#define __CAPE_DEFINE_COMBINER(op, tn, T, en, E, stmt) \
    static __attribute__((unused)) void __cape_combine_##op##_##tn##_##en(void *__cape_inout, const void *__cape_in) \
    { T *__cape_a = (T *)__cape_inout; E __cape_b; \
      __builtin_memcpy(&__cape_b, sizeof(E) <= sizeof(T) ? __cape_in : (const void *)__cape_atomic_wide, sizeof(E)); \
      stmt }
/* operand types: the promoted integer types, then the real ones */
#define __CAPE_INT_OPERANDS(D, op, tn, T, stmt) \
    D(op, tn, T, i, int, stmt) D(op, tn, T, ui, unsigned int, stmt) D(op, tn, T, l, long, stmt) \
    D(op, tn, T, ul, unsigned long, stmt) D(op, tn, T, ll, long long, stmt) \
    D(op, tn, T, ull, unsigned long long, stmt) D(op, tn, T, i128, __int128, stmt) \
    D(op, tn, T, u128, unsigned __int128, stmt)
#define __CAPE_REAL_OPERANDS(D, op, tn, T, stmt) __CAPE_INT_OPERANDS(D, op, tn, T, stmt) \
    D(op, tn, T, f, float, stmt) D(op, tn, T, d, double, stmt) D(op, tn, T, ld, long double, stmt)
/* the updated types narrower than int also take an operand of their own type */
#define __CAPE_FOR_INTEGERS(X, op, stmt) \
    X(op, b, _Bool, stmt, 1) X(op, c, char, stmt, 1) X(op, sc, signed char, stmt, 1) \
    X(op, uc, unsigned char, stmt, 1) X(op, s, short, stmt, 1) X(op, us, unsigned short, stmt, 1) \
    X(op, i, int, stmt, 0) X(op, ui, unsigned int, stmt, 0) X(op, l, long, stmt, 0) \
    X(op, ul, unsigned long, stmt, 0) X(op, ll, long long, stmt, 0) X(op, ull, unsigned long long, stmt, 0) \
    X(op, i128, __int128, stmt, 0) X(op, u128, unsigned __int128, stmt, 0)
#define __CAPE_FOR_REALS(X, op, stmt) __CAPE_FOR_INTEGERS(X, op, stmt) \
    X(op, f, float, stmt, 0) X(op, d, double, stmt, 0) X(op, ld, long double, stmt, 0)
#define __CAPE_OWN_0(op, tn, T, stmt)
#define __CAPE_OWN_1(op, tn, T, stmt) __CAPE_DEFINE_COMBINER(op, tn, T, tn, T, stmt)
#define __CAPE_DEFINE_REAL(op, tn, T, stmt, narrow) __CAPE_OWN_##narrow(op, tn, T, stmt) \
    __CAPE_REAL_OPERANDS(__CAPE_DEFINE_COMBINER, op, tn, T, stmt)
#define __CAPE_DEFINE_INT(op, tn, T, stmt, narrow) __CAPE_OWN_##narrow(op, tn, T, stmt) \
    __CAPE_INT_OPERANDS(__CAPE_DEFINE_COMBINER, op, tn, T, stmt)
#define __CAPE_DEFINE_SHIFT(op, tn, T, stmt, narrow) __CAPE_DEFINE_COMBINER(op, tn, T, ll, long long, stmt)
#define __CAPE_STMT_ADD *__cape_a = (__typeof__(*__cape_a))(*__cape_a + __cape_b);
#define __CAPE_STMT_SUB *__cape_a = (__typeof__(*__cape_a))(*__cape_a - __cape_b);
#define __CAPE_STMT_MUL *__cape_a = (__typeof__(*__cape_a))(*__cape_a * __cape_b);
/* an integer division that traps: by zero, or of its type's minimum by -1. The runtime's replay
   of a rank's updates (to tell its plain stores) may meet one the program never made:
   `__cape_combine_undefined()` is 1 there, and the combiner leaves x */
#define __CAPE_DIV_TRAPS(a, b) (__extension__ _Generic((a) / (b), float: 0, double: 0, \
    long double: 0, default: (b) == 0) || __extension__ _Generic((a) / (b), \
    int: ((b) == -1 && (a) == -__INT_MAX__ - 1), long: ((b) == -1 && (a) == -__LONG_MAX__ - 1L), \
    long long: ((b) == -1 && (a) == -__LONG_LONG_MAX__ - 1LL), \
    __int128: ((b) == -1 && (a) == (__int128)((unsigned __int128)1 << 127)), default: 0))
#define __CAPE_STMT_DIV if (__CAPE_DIV_TRAPS(*__cape_a, __cape_b) && __cape_combine_undefined()) \
    return; \
    *__cape_a = (__typeof__(*__cape_a))(*__cape_a / __cape_b);
#define __CAPE_STMT_MAX if (__cape_b > *__cape_a) *__cape_a = (__typeof__(*__cape_a))__cape_b;
#define __CAPE_STMT_MIN if (__cape_b < *__cape_a) *__cape_a = (__typeof__(*__cape_a))__cape_b;
#define __CAPE_STMT_AND *__cape_a = (__typeof__(*__cape_a))(*__cape_a & __cape_b);
#define __CAPE_STMT_OR *__cape_a = (__typeof__(*__cape_a))(*__cape_a | __cape_b);
#define __CAPE_STMT_XOR *__cape_a = (__typeof__(*__cape_a))(*__cape_a ^ __cape_b);
#define __CAPE_STMT_SHL *__cape_a = (__typeof__(*__cape_a))(*__cape_a << __cape_b);
#define __CAPE_STMT_SHR *__cape_a = (__typeof__(*__cape_a))(*__cape_a >> __cape_b);
__CAPE_FOR_REALS(__CAPE_DEFINE_REAL, ADD, __CAPE_STMT_ADD)
__CAPE_FOR_REALS(__CAPE_DEFINE_REAL, SUB, __CAPE_STMT_SUB)
__CAPE_FOR_REALS(__CAPE_DEFINE_REAL, MUL, __CAPE_STMT_MUL)
__CAPE_FOR_REALS(__CAPE_DEFINE_REAL, DIV, __CAPE_STMT_DIV)
__CAPE_FOR_REALS(__CAPE_DEFINE_REAL, MAX, __CAPE_STMT_MAX)
__CAPE_FOR_REALS(__CAPE_DEFINE_REAL, MIN, __CAPE_STMT_MIN)
__CAPE_FOR_INTEGERS(__CAPE_DEFINE_INT, AND, __CAPE_STMT_AND)
__CAPE_FOR_INTEGERS(__CAPE_DEFINE_INT, OR, __CAPE_STMT_OR)
__CAPE_FOR_INTEGERS(__CAPE_DEFINE_INT, XOR, __CAPE_STMT_XOR)
__CAPE_FOR_INTEGERS(__CAPE_DEFINE_SHIFT, SHL, __CAPE_STMT_SHL)
__CAPE_FOR_INTEGERS(__CAPE_DEFINE_SHIFT, SHR, __CAPE_STMT_SHR)
#pragma GCC diagnostic pop
/* selection: by the updated type, then by the operand's */
/* (`default` only serves the branches _Generic does not select; a type without a combiner fails
   to link) */
void __cape_combine_no_such_operand_type(void *, const void *);
#define __CAPE_PICK_INT(op, tn, e) __extension__ _Generic((e), default: __cape_combine_no_such_operand_type, \
    int: __cape_combine_##op##_##tn##_i, \
    unsigned int: __cape_combine_##op##_##tn##_ui, long: __cape_combine_##op##_##tn##_l, \
    unsigned long: __cape_combine_##op##_##tn##_ul, long long: __cape_combine_##op##_##tn##_ll, \
    unsigned long long: __cape_combine_##op##_##tn##_ull, __int128: __cape_combine_##op##_##tn##_i128, \
    unsigned __int128: __cape_combine_##op##_##tn##_u128
#define __CAPE_PICK_REAL(op, tn, e) __CAPE_PICK_INT(op, tn, e), float: __cape_combine_##op##_##tn##_f, \
    double: __cape_combine_##op##_##tn##_d, long double: __cape_combine_##op##_##tn##_ld
#define __CAPE_PICK_NARROW_REAL(op, tn, T, e) __CAPE_PICK_REAL(op, tn, e), T: __cape_combine_##op##_##tn##_##tn)
#define __CAPE_PICK_NARROW_INT(op, tn, T, e) __CAPE_PICK_INT(op, tn, e), T: __cape_combine_##op##_##tn##_##tn)
#define __CAPE_SELECT(K, op, x, e) \
    _Bool: __CAPE_PICK_NARROW_##K(op, b, _Bool, e), char: __CAPE_PICK_NARROW_##K(op, c, char, e), \
    signed char: __CAPE_PICK_NARROW_##K(op, sc, signed char, e), \
    unsigned char: __CAPE_PICK_NARROW_##K(op, uc, unsigned char, e), \
    short: __CAPE_PICK_NARROW_##K(op, s, short, e), \
    unsigned short: __CAPE_PICK_NARROW_##K(op, us, unsigned short, e), \
    int: __CAPE_PICK_##K(op, i, e)), unsigned int: __CAPE_PICK_##K(op, ui, e)), \
    long: __CAPE_PICK_##K(op, l, e)), unsigned long: __CAPE_PICK_##K(op, ul, e)), \
    long long: __CAPE_PICK_##K(op, ll, e)), unsigned long long: __CAPE_PICK_##K(op, ull, e)), \
    __int128: __CAPE_PICK_##K(op, i128, e)), unsigned __int128: __CAPE_PICK_##K(op, u128, e))
#define __CAPE_REAL_COMBINER(op, x, e) __extension__ _Generic((x), __CAPE_SELECT(REAL, op, x, e), \
    float: __CAPE_PICK_REAL(op, f, e)), double: __CAPE_PICK_REAL(op, d, e)), \
    long double: __CAPE_PICK_REAL(op, ld, e)))
#define __CAPE_INT_COMBINER(op, x, e) __extension__ _Generic((x), __CAPE_SELECT(INT, op, x, e))
#define __CAPE_SHIFT_COMBINER(op, x) __extension__ _Generic((x), _Bool: __cape_combine_##op##_b_ll, \
    char: __cape_combine_##op##_c_ll, signed char: __cape_combine_##op##_sc_ll, \
    unsigned char: __cape_combine_##op##_uc_ll, short: __cape_combine_##op##_s_ll, \
    unsigned short: __cape_combine_##op##_us_ll, int: __cape_combine_##op##_i_ll, \
    unsigned int: __cape_combine_##op##_ui_ll, long: __cape_combine_##op##_l_ll, \
    unsigned long: __cape_combine_##op##_ul_ll, long long: __cape_combine_##op##_ll_ll, \
    unsigned long long: __cape_combine_##op##_ull_ll, __int128: __cape_combine_##op##_i128_ll, \
    unsigned __int128: __cape_combine_##op##_u128_ll)
#define __CAPE_COMBINER_ADD(x, e) __CAPE_REAL_COMBINER(ADD, x, e)
#define __CAPE_COMBINER_SUB(x, e) __CAPE_REAL_COMBINER(SUB, x, e)
#define __CAPE_COMBINER_MUL(x, e) __CAPE_REAL_COMBINER(MUL, x, e)
#define __CAPE_COMBINER_DIV(x, e) __CAPE_REAL_COMBINER(DIV, x, e)
#define __CAPE_COMBINER_MAX(x, e) __CAPE_REAL_COMBINER(MAX, x, e)
#define __CAPE_COMBINER_MIN(x, e) __CAPE_REAL_COMBINER(MIN, x, e)
#define __CAPE_COMBINER_AND(x, e) __CAPE_INT_COMBINER(AND, x, e)
#define __CAPE_COMBINER_OR(x, e) __CAPE_INT_COMBINER(OR, x, e)
#define __CAPE_COMBINER_XOR(x, e) __CAPE_INT_COMBINER(XOR, x, e)
#define __CAPE_COMBINER_SHL(x, e) __CAPE_SHIFT_COMBINER(SHL, x)
#define __CAPE_COMBINER_SHR(x, e) __CAPE_SHIFT_COMBINER(SHR, x)
/* the operand's type: that of `x op e` (C's arithmetic conversions); x's own type for the
   modular operations on integers, which give the same bits (not for _Bool, which is not
   modular); shift counts as long long */
#define __CAPE_MODULAR(x, v) __extension__ _Generic((x), _Bool: (v), default: _Generic((v), float: (v), \
    double: (v), long double: (v), default: (x)))
#define __CAPE_OPERAND_ADD(x, e) __CAPE_MODULAR(x, (x) + (e))
#define __CAPE_OPERAND_SUB(x, e) __CAPE_MODULAR(x, (x) - (e))
#define __CAPE_OPERAND_MUL(x, e) __CAPE_MODULAR(x, (x) * (e))
#define __CAPE_OPERAND_DIV(x, e) ((x) / (e))
#define __CAPE_OPERAND_MAX(x, e) ((x) + (e))
#define __CAPE_OPERAND_MIN(x, e) ((x) + (e))
#define __CAPE_OPERAND_AND(x, e) __CAPE_MODULAR(x, (x) & (e))
#define __CAPE_OPERAND_OR(x, e) __CAPE_MODULAR(x, (x) | (e))
#define __CAPE_OPERAND_XOR(x, e) __CAPE_MODULAR(x, (x) ^ (e))
#define __CAPE_OPERAND_SHL(x, e) (long long)0
#define __CAPE_OPERAND_SHR(x, e) (long long)0
#pragma GCC diagnostic pop
typedef struct { unsigned long long w; } omp_lock_t;
void omp_set_lock(omp_lock_t *);
void omp_unset_lock(omp_lock_t *);
int total, hits[4];
double best;


__CAPE_GENERATED_BEGIN

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
/* capecc: data of the #pragma omp parallel for at lock_pairs.c:10 */
struct __cape_data_1 {
    void *lock;
    void *other;
};
static void __cape_fn_1(void *__cape_arg);
int __cape_user_main(void)
{
    omp_lock_t lock, other;
    {
        /* capecc: #pragma omp parallel for at lock_pairs.c:10 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_1[] = {
            { (const void *)&lock, sizeof lock, { 0, 0, 0 }, 0, "lock", "omp_lock_t lock", "lock_pairs.c:9" },
            { (const void *)&other, sizeof other, { 0, 0, 0 }, 0, "other", "omp_lock_t other", "lock_pairs.c:9" },
            };
            __cape_region_objects("parallel for at lock_pairs.c:10", __cape_objects_1, 2);
        }
        struct __cape_data_1 __cape_data = {
            .lock = (void *)&lock,
            .other = (void *)&other,
        };
        __cape_parallel(__cape_fn_1, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
    return total;
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel for at lock_pairs.c:10 */
static void __cape_fn_1(void *__cape_arg)
{
    struct __cape_data_1 *__cape_d = (struct __cape_data_1 *)__cape_arg;
    omp_lock_t (*__cape_shared_lock) = __cape_d->lock;
    omp_lock_t (*__cape_shared_other) = __cape_d->other;
    (void)__cape_shared_other; /* every use was lowered away (a lock pair) */
    { /* capecc: #pragma omp parallel for at lock_pairs.c:10 */
        int i;
        __typeof__(i) __cape_lb0 = (0);
        __typeof__(__cape_lb0 + ((8))) __cape_ub0 = (8);
        __typeof__(__cape_ub0) __cape_lbc0 = __cape_lb0;
        long long __cape_step0 = 1;
        unsigned long long __cape_n0 = 0;
        if (__cape_step0 > 0 && __cape_lbc0 < __cape_ub0)
            __cape_n0 = ((unsigned long long)__cape_ub0 - (unsigned long long)__cape_lbc0 - 1)
                       / (unsigned long long)__cape_step0 + 1;
        unsigned long long __cape_n = __cape_n0, __cape_lo, __cape_hi, __cape_end, __cape_k;
        __cape_loop __cape_l;
        __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, 0);
        if (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
            for (__cape_k = __cape_lo, __cape_end = __cape_hi,
                 i = (__typeof__(i))((unsigned long long)__cape_lb0
                                             + __cape_lo * (unsigned long long)__cape_step0);
                 __cape_k < __cape_end;
                 __cape_k++, i += (__typeof__(i - i))__cape_step0) {
                {

                    { /* capecc: #pragma omp critical for the lock `&other` at lock_pairs.c:13: mergeable updates */
                { __typeof__(__CAPE_OPERAND_ADD(hits[i % 4], 2)) __cape_v = (__typeof__(__cape_v))(2); __typeof__(&(hits[i % 4])) __cape_x = &(hits[i % 4]); if (!__CAPE_FETCH_ADD(__cape_x, __cape_v)) __cape_atomic_apply((void *)__cape_x, sizeof *__cape_x, (const void *)&__cape_v, sizeof __cape_v, __CAPE_COMBINER_ADD(*__cape_x, __cape_v), __CAPE_FOLDS_ADD(__cape_x, __cape_v)); }
    }

                    { /* capecc: a lock pair at lock_pairs.c:17: any code, under a lock shared by the ranks */
                __cape_lock_set((void *)(&(*__cape_shared_lock)), 0);
    (*(__typeof__(&(total)))__cape_store_report((void *)&(total), sizeof(total)))+= i;
                    (*(__typeof__(&(hits[i % 4])))__cape_store_report((void *)&(hits[i % 4]), sizeof(hits[i % 4])))++;
                    if (i * 0.5 > best)
                        (*(__typeof__(&(best)))__cape_store_report((void *)&(best), sizeof(best)))= i * 0.5;
                __cape_lock_unset((void *)(&(*__cape_shared_lock)), 0);
    }
                    { /* capecc: a lock pair at lock_pairs.c:23: any code, under a lock shared by the ranks */
                __cape_lock_set((void *)(&(*__cape_shared_lock)), 0);
    if (total < 3)
                        (*(__typeof__(&(total)))__cape_store_report((void *)&(total), sizeof(total)))= 0;
                __cape_lock_unset((void *)(&(*__cape_shared_lock)), 0);
    }
                }
            }
        __cape_loop_end(&__cape_l, 1);
    }

}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


int omp_test_lock(omp_lock_t *);
int tested;


__CAPE_GENERATED_BEGIN
/* capecc: data of the #pragma omp parallel at lock_pairs.c:36 */
struct __cape_data_2 {
    void *lock;
};
static void __cape_fn_2(void *__cape_arg);
void try_lock(omp_lock_t *lock)
{
    {
        /* capecc: #pragma omp parallel at lock_pairs.c:36 */
        {
            /* the shared objects the region uses, named in the runtime's reports */
            const struct __cape_object __cape_objects_2[] = {
            { (const void *)&lock, sizeof lock, { 0, 0, 0 }, 0, "lock", "omp_lock_t *lock", "lock_pairs.c:34" },
            };
            __cape_region_objects("parallel at lock_pairs.c:36", __cape_objects_2, 1);
        }
        struct __cape_data_2 __cape_data = {
            .lock = (void *)&lock,
        };
        __cape_parallel(__cape_fn_2, &__cape_data, 0, 1,
                        __CAPE_STACK_POINTER());
    }
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"

/* capecc: #pragma omp parallel at lock_pairs.c:36 */
static void __cape_fn_2(void *__cape_arg)
{
    struct __cape_data_2 *__cape_d = (struct __cape_data_2 *)__cape_arg;
    omp_lock_t *(*__cape_shared_lock) = __cape_d->lock;
    __typeof__(*__cape_shared_lock) __cape_value_lock = *__cape_shared_lock; /* the region only reads it */
    {
        /* capecc: a lock test at lock_pairs.c:38: the block runs under a lock shared by the ranks */
if (__cape_lock_test((void *)(__cape_value_lock), 0))
{
            (*(__typeof__(&(tested)))__cape_store_report((void *)&(tested), sizeof(tested)))++;
            __cape_lock_unset((void *)(__cape_value_lock), 0);
        }
else
{
            tested += 0;
        }
    }
}
#pragma GCC diagnostic pop
#pragma GCC diagnostic pop


__CAPE_GENERATED_BEGIN
/* capecc: this file has critical sections under locks shared by the ranks */
static void __attribute__((constructor)) __cape_critical_used_here(void) { __cape_critical_used(); }

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
        { (const void *)&total, sizeof total, { 0, 0, 0 }, 0, "total", "int total", "lock_pairs.c:4" },
        { (const void *)&hits, sizeof hits, { sizeof (hits)[0], 0, 0 }, 0, "hits", "int hits[4]", "lock_pairs.c:4" },
        { (const void *)&best, sizeof best, { 0, 0, 0 }, 0, "best", "double best", "lock_pairs.c:5" },
        { (const void *)&tested, sizeof tested, { 0, 0, 0 }, 0, "tested", "int tested", "lock_pairs.c:32" },
    };
    __cape_objects(__cape_file_objects_table, 4);
}

/* capecc: the program starts in the runtime, which runs the user's main on every rank */
static int __cape_main_adapter(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    (void)envp;
    return __cape_user_main();
}

int main(int argc, char **argv, char **envp)
{
    return __cape_start(argc, argv, envp, __cape_main_adapter);
}
#pragma GCC diagnostic pop
