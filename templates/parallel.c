/*@ decls */
/* capecc: data of the #pragma omp {{construct}} at {{location}} */
struct __cape_data_{{id}} {
{{fields}}};
static void __cape_fn_{{id}}(void *__cape_arg);
/*@ field */
    void *{{field}};
/*@ no_fields */
    char __cape_none;
/*@ call */
{
    /* capecc: #pragma omp {{construct}} at {{location}} */
{{objects}}    struct __cape_data_{{id}} __cape_data = {
{{field_inits}}    };
    __cape_parallel(__cape_fn_{{id}}, &__cape_data, {{num_threads}}, {{if_clause}},
                    __CAPE_STACK_POINTER());
}
/*@ call_cooperative */
{
    /* capecc: #pragma omp {{construct}} at {{location}} */
{{objects}}    struct __cape_data_{{id}} __cape_data = {
{{field_inits}}    };
    /* its threads wait for each other through shared flags: user-level threads on every rank */
    __cape_parallel_cooperative(__cape_fn_{{id}}, &__cape_data, {{num_threads}}, {{if_clause}},
                                __CAPE_STACK_POINTER());
}
/*@ call_scoped */
{
    /* capecc: #pragma omp {{construct}} at {{location}} */
{{objects}}    struct __cape_data_{{id}} __cape_data = {
{{field_inits}}    };
    /* what the region may write */
    const struct __cape_span __cape_scope_{{id}}[] = {
{{spans}}    };
    __cape_parallel_in_scope(__cape_fn_{{id}}, &__cape_data, {{num_threads}}, {{if_clause}},
                             __CAPE_STACK_POINTER(), __cape_scope_{{id}}, {{count}});
}
/*@ call_private_only */
{
    /* capecc: #pragma omp {{construct}} at {{location}} */
{{objects}}    struct __cape_data_{{id}} __cape_data = {
{{field_inits}}    };
    /* the region writes private memory only */
    __cape_parallel_in_scope(__cape_fn_{{id}}, &__cape_data, {{num_threads}}, {{if_clause}},
                             __CAPE_STACK_POINTER(), (const struct __cape_span *)0, 0);
}
/*@ span_variable */
        { (const void *)&{{var}}, sizeof {{var}} },
/*@ span_block */
        { (const void *){{pointer}}, 0 },
/*@ field_init */
        .{{field}} = (void *)&{{expr}},
/*@ no_field_init */
        .__cape_none = 0,
/*@ function */

/* capecc: #pragma omp {{construct}} at {{location}} */
static void __cape_fn_{{id}}(void *__cape_arg)
{
    struct __cape_data_{{id}} *__cape_d = (struct __cape_data_{{id}} *)__cape_arg;
{{unused_data}}{{function_name}}{{local_enums}}{{shared_pointers}}{{copyins}}{{privates}}{{body}}
{{reductions}}}
/*@ shared_pointer */
    {{pointer}} = __cape_d->{{field}};
/*@ threadprivate_pointer */
    extern _Thread_local char __cape_tls_{{field}}[] __asm__("{{symbol}}");
    {{pointer}} = (void *)__cape_tls_{{field}}; /* this thread's copy */
/*@ read_only_value */
    __typeof__(*{{pointer}}) {{value}} = *{{pointer}}; /* the region only reads it */
/*@ unused_pointer */
    (void){{name}}; /* every use was lowered away (a lock pair) */
/*@ unused_data */
    (void)__cape_d;
/*@ copyin */
    __cape_copyin(&{{var}}, sizeof {{var}});
/*@ private */
    __CAPE_COPY_BEGIN __typeof__({{of}}) {{var}} __attribute__((unused)); __CAPE_COPY_END
/*@ firstprivate */
    __CAPE_COPY_BEGIN __typeof__({{of}}) {{var}} __attribute__((unused)); __CAPE_COPY_END
    __CAPE_CLAUSE_COPY(&{{var}}, __cape_d->{{field}}, sizeof {{var}});
/*@ reduction_init */
    __CAPE_COPY_BEGIN __typeof__({{of}}) {{var}} __attribute__((unused)) = {{identity}}; __CAPE_COPY_END
/*@ reduction_out */
    { /* a copy's address goes to the runtime: the private copy's never escapes, so the
         backend keeps it in a register across the loop (stores through pointers of its type
         cannot be taken for stores to it) */
        __typeof__({{var}}) __cape_partial_{{var}} = {{var}};
        __cape_reduce((void *)__cape_d->{{field}}, (const void *)&__cape_partial_{{var}}, sizeof {{var}}, {{combine}});
    }
