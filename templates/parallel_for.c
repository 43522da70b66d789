/*@ decls */
/* capecc: data of the #pragma omp parallel for at {{location}} */
struct __cape_data_{{id}} {
    long long __cape_chunk;
{{fields}}};
static void __cape_fn_{{id}}(void *__cape_arg);
{{combine_decls}}
/*@ field */
    void *{{field}};
/*@ combine_decl */
static void __cape_combine_{{id}}_{{field}}(void *__cape_inout, const void *__cape_in);
/*@ call */
{
        /* capecc: #pragma omp parallel for at {{location}} */
        struct __cape_data_{{id}} __cape_data = {
            .__cape_chunk = {{chunk}},
{{field_inits}}        };
        __cape_parallel(__cape_fn_{{id}}, &__cape_data, {{num_threads}}, {{if_clause}},
                        __CAPE_STACK_POINTER());
    }
/*@ field_init */
            .{{field}} = (void *)&{{expr}},
/*@ function */

/* capecc: #pragma omp parallel for at {{location}} */
static void __cape_fn_{{id}}(void *__cape_arg)
{
    struct __cape_data_{{id}} *__cape_d = (struct __cape_data_{{id}} *)__cape_arg;
{{shared_pointers}}    {{loop_var_decl}}
    /* the iteration space, evaluated once: lb, ub and step in the loop's own types */
    __typeof__({{var}}) __cape_lb = {{lb}};
    __typeof__(__cape_lb + ({{ub}})) __cape_ub = {{ub}};
    __typeof__(__cape_ub) __cape_lbc = __cape_lb;
    long long __cape_step = {{step}};
    unsigned long long __cape_n = 0;
    unsigned long long __cape_lo, __cape_hi, __cape_k;
    __cape_loop __cape_l;
    {{trip_count}}
{{privates}}    __cape_loop_init(&__cape_l, __cape_n, CAPE_SCHED_STATIC, __cape_d->__cape_chunk);
    while (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
        for (__cape_k = __cape_lo; __cape_k < __cape_hi; __cape_k++) {
            {{var}} = (__typeof__({{var}}))((unsigned long long)__cape_lb
                                            + __cape_k * (unsigned long long)__cape_step);
{{body}}
        }
{{last}}{{reductions}}    __cape_loop_end(&__cape_l, 0);
}
{{combine_fns}}
/*@ last_block */
    if (__cape_loop_is_last(&__cape_l)) {
        {{last_var}}
{{lastprivate_out}}    }
/*@ trip_lt */
if (__cape_step > 0 && __cape_lbc < __cape_ub)
        __cape_n = ((unsigned long long)__cape_ub - (unsigned long long)__cape_lbc - 1)
                   / (unsigned long long)__cape_step + 1;
/*@ trip_le */
if (__cape_step > 0 && __cape_lbc <= __cape_ub)
        __cape_n = ((unsigned long long)__cape_ub - (unsigned long long)__cape_lbc)
                   / (unsigned long long)__cape_step + 1;
/*@ trip_gt */
if (__cape_step < 0 && __cape_lbc > __cape_ub)
        __cape_n = ((unsigned long long)__cape_lbc - (unsigned long long)__cape_ub - 1)
                   / (unsigned long long)-__cape_step + 1;
/*@ trip_ge */
if (__cape_step < 0 && __cape_lbc >= __cape_ub)
        __cape_n = ((unsigned long long)__cape_lbc - (unsigned long long)__cape_ub)
                   / (unsigned long long)-__cape_step + 1;
/*@ trip_ne */
if (__cape_step > 0 && __cape_lbc < __cape_ub)
        __cape_n = ((unsigned long long)__cape_ub - (unsigned long long)__cape_lbc - 1)
                   / (unsigned long long)__cape_step + 1;
    else if (__cape_step < 0 && __cape_lbc > __cape_ub)
        __cape_n = ((unsigned long long)__cape_lbc - (unsigned long long)__cape_ub - 1)
                   / (unsigned long long)-__cape_step + 1;
/*@ shared_pointer */
    {{pointer}} = __cape_d->{{field}};
/*@ loop_var_typeof */
__typeof__({{of}}) {{var}};
/*@ loop_var_declared */
{{type}};
/*@ last_var */
{{var}} = (__typeof__({{var}}))((unsigned long long)__cape_lb + __cape_n * (unsigned long long)__cape_step);
        __builtin_memcpy(__cape_d->{{field}}, &{{var}}, sizeof {{var}});
/*@ private */
    __typeof__({{of}}) {{var}};
/*@ firstprivate */
    __typeof__({{of}}) {{var}};
    __builtin_memcpy(&{{var}}, __cape_d->{{field}}, sizeof {{var}});
/*@ lastprivate_out */
        __builtin_memcpy(__cape_d->{{field}}, &{{var}}, sizeof {{var}});
/*@ reduction_init */
    __typeof__({{of}}) {{var}} = {{identity}};
/*@ reduction_out */
    __cape_reduce(__cape_d->{{field}}, &{{var}}, sizeof {{var}}, __cape_combine_{{id}}_{{field}});
/*@ combine_fn */

/* capecc: reduction({{op}}: {{var}}) of the #pragma omp parallel for at {{location}} */
static void __cape_combine_{{id}}_{{field}}(void *__cape_inout, const void *__cape_in)
{
    {{inout_pointer}} = __cape_inout;
    {{in_pointer}} = (void *)__cape_in;
    *__cape_a = {{combined}};
}
