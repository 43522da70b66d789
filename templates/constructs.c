/*@ comment */
/* capecc: #pragma omp {{what}} */
/*@ barrier */
__cape_barrier();
/*@ master */
if (omp_get_thread_num() == ({{filter}})) /* capecc: #pragma omp {{construct}} at {{location}} */
{{body}}
/*@ single */
{ /* capecc: #pragma omp single at {{location}} */
    if (__cape_single_begin()) {
{{privates}}{{body}}
    }
{{copyprivates}}    __cape_single_end({{nowait}});
}
/*@ copyprivate */
    __cape_copyprivate(&{{var}}, sizeof {{var}});
/*@ private */
        __typeof__({{of}}) {{var}};
/*@ firstprivate */
        __typeof__({{of}}) {{var}};
        __builtin_memcpy(&{{var}}, __cape_orig_{{var}}, sizeof {{var}});
/*@ original */
    __typeof__({{of}}) *__cape_orig_{{var}} = &{{of}};
/*@ critical */
{ /* capecc: #pragma omp {{construct}} at {{location}}: mergeable updates */
{{updates}}}
/*@ update */
    { __typeof__({{lvalue}}) __cape_v = ({{operand}}); __cape_atomic_update(&({{lvalue}}), &__cape_v, sizeof __cape_v, __CAPE_COMBINER_{{op}}({{lvalue}})); }
/*@ plain */
{ /* capecc: #pragma omp {{construct}} at {{location}}: a plain access, the last writer wins */
{{body}}
}
/*@ threadprivate */

/* capecc: #pragma omp threadprivate({{var}}) at {{location}} */
__attribute__((constructor)) static void __cape_tp_init_{{id}}(void)
{
    __cape_threadprivate(&{{var}}, sizeof {{var}});
}
/*@ combiners */
/* capecc: combine functions of `atomic`/`critical` updates, chosen by the updated type */
#define __CAPE_DEFINE_COMBINER(name, T, expr) \
    static __attribute__((unused)) void __cape_combine_##name(void *__cape_inout, const void *__cape_in) \
    { T *__cape_a = __cape_inout; const T *__cape_b = __cape_in; *__cape_a = (expr); }
#define __CAPE_DEFINE_INTEGER_COMBINERS(op, expr) \
    __CAPE_DEFINE_COMBINER(op##_b, _Bool, expr) __CAPE_DEFINE_COMBINER(op##_c, char, expr) \
    __CAPE_DEFINE_COMBINER(op##_sc, signed char, expr) __CAPE_DEFINE_COMBINER(op##_uc, unsigned char, expr) \
    __CAPE_DEFINE_COMBINER(op##_s, short, expr) __CAPE_DEFINE_COMBINER(op##_us, unsigned short, expr) \
    __CAPE_DEFINE_COMBINER(op##_i, int, expr) __CAPE_DEFINE_COMBINER(op##_ui, unsigned int, expr) \
    __CAPE_DEFINE_COMBINER(op##_l, long, expr) __CAPE_DEFINE_COMBINER(op##_ul, unsigned long, expr) \
    __CAPE_DEFINE_COMBINER(op##_ll, long long, expr) __CAPE_DEFINE_COMBINER(op##_ull, unsigned long long, expr)
#define __CAPE_DEFINE_REAL_COMBINERS(op, expr) \
    __CAPE_DEFINE_INTEGER_COMBINERS(op, expr) __CAPE_DEFINE_COMBINER(op##_f, float, expr) \
    __CAPE_DEFINE_COMBINER(op##_d, double, expr) __CAPE_DEFINE_COMBINER(op##_ld, long double, expr)
__CAPE_DEFINE_REAL_COMBINERS(ADD, *__cape_a + *__cape_b)
__CAPE_DEFINE_REAL_COMBINERS(SUB, *__cape_a - *__cape_b)
__CAPE_DEFINE_REAL_COMBINERS(MUL, *__cape_a * *__cape_b)
__CAPE_DEFINE_REAL_COMBINERS(MAX, *__cape_b > *__cape_a ? *__cape_b : *__cape_a)
__CAPE_DEFINE_REAL_COMBINERS(MIN, *__cape_b < *__cape_a ? *__cape_b : *__cape_a)
__CAPE_DEFINE_INTEGER_COMBINERS(AND, *__cape_a & *__cape_b)
__CAPE_DEFINE_INTEGER_COMBINERS(OR, *__cape_a | *__cape_b)
__CAPE_DEFINE_INTEGER_COMBINERS(XOR, *__cape_a ^ *__cape_b)
#define __CAPE_INTEGER_COMBINER(op, x) \
    _Bool: __cape_combine_##op##_b, char: __cape_combine_##op##_c, \
    signed char: __cape_combine_##op##_sc, unsigned char: __cape_combine_##op##_uc, \
    short: __cape_combine_##op##_s, unsigned short: __cape_combine_##op##_us, \
    int: __cape_combine_##op##_i, unsigned int: __cape_combine_##op##_ui, \
    long: __cape_combine_##op##_l, unsigned long: __cape_combine_##op##_ul, \
    long long: __cape_combine_##op##_ll, unsigned long long: __cape_combine_##op##_ull
#define __CAPE_REAL_COMBINER(op, x) _Generic((x), __CAPE_INTEGER_COMBINER(op, x), \
    float: __cape_combine_##op##_f, double: __cape_combine_##op##_d, long double: __cape_combine_##op##_ld)
#define __CAPE_COMBINER_ADD(x) __CAPE_REAL_COMBINER(ADD, x)
#define __CAPE_COMBINER_SUB(x) __CAPE_REAL_COMBINER(SUB, x)
#define __CAPE_COMBINER_MUL(x) __CAPE_REAL_COMBINER(MUL, x)
#define __CAPE_COMBINER_MAX(x) __CAPE_REAL_COMBINER(MAX, x)
#define __CAPE_COMBINER_MIN(x) __CAPE_REAL_COMBINER(MIN, x)
#define __CAPE_COMBINER_AND(x) _Generic((x), __CAPE_INTEGER_COMBINER(AND, x))
#define __CAPE_COMBINER_OR(x) _Generic((x), __CAPE_INTEGER_COMBINER(OR, x))
#define __CAPE_COMBINER_XOR(x) _Generic((x), __CAPE_INTEGER_COMBINER(XOR, x))
