/*@ section_init */
    __typeof__(&({{of}})[0]) __cape_rbase_{{var}} = &({{of}})[0];
    const unsigned long long __cape_rlo_{{var}} = {{lo}}, __cape_rlen_{{var}} = {{len}};
    __typeof__(({{of}})[0]) __cape_rbuf_{{var}}[__cape_rlen_{{var}} ? __cape_rlen_{{var}} : 1];
    const unsigned long long __cape_rn_{{var}} = __cape_rlen_{{var}} * (sizeof __cape_rbuf_{{var}}[0] / sizeof {{scalar}});
    __typeof__(&({{of}})[0]) {{var}} = __cape_rbuf_{{var}} - __cape_rlo_{{var}};
    for (unsigned long long __cape_k = 0; __cape_k < __cape_rn_{{var}}; __cape_k++) {
        __typeof__({{scalar}}) *__cape_priv = (__typeof__({{scalar}}) *)(void *)__cape_rbuf_{{var}} + __cape_k;
        __typeof__({{scalar}}) *__cape_orig = (__typeof__({{scalar}}) *)(void *)(__cape_rbase_{{var}} + __cape_rlo_{{var}}) + __cape_k;
        (void)__cape_orig;
        {{init}}
    }
/*@ section_out */
    {
        __typeof__({{scalar}}) *__cape_dst = (__typeof__({{scalar}}) *)(void *)(__cape_rbase_{{var}} + __cape_rlo_{{var}});
        __typeof__({{scalar}}) *__cape_src = (__typeof__({{scalar}}) *)(void *)__cape_rbuf_{{var}};
        unsigned long long __cape_k = 0;
        for (; __cape_k + 1024 <= __cape_rn_{{var}}; __cape_k += 1024)
            __cape_reduce((void *)(__cape_dst + __cape_k), (const void *)(__cape_src + __cape_k), 1024 * sizeof *__cape_src, {{combine}}_1024);
        for (; __cape_k + 64 <= __cape_rn_{{var}}; __cape_k += 64)
            __cape_reduce((void *)(__cape_dst + __cape_k), (const void *)(__cape_src + __cape_k), 64 * sizeof *__cape_src, {{combine}}_64);
        for (; __cape_k + 8 <= __cape_rn_{{var}}; __cape_k += 8)
            __cape_reduce((void *)(__cape_dst + __cape_k), (const void *)(__cape_src + __cape_k), 8 * sizeof *__cape_src, {{combine}}_8);
        for (; __cape_k < __cape_rn_{{var}}; __cape_k++)
            __cape_reduce((void *)(__cape_dst + __cape_k), (const void *)(__cape_src + __cape_k), sizeof *__cape_src, {{combine}}_1);
    }
/*@ section_combine_decl */
static void {{combine}}_{{n}}(void *__cape_inout, const void *__cape_in);
/*@ section_combine_fn */

/* capecc: reduction({{op}}: {{item}}) of the #pragma omp {{construct}} at {{location}}, {{n}} elements */
static void {{combine}}_{{n}}(void *__cape_inout, const void *__cape_in)
{
    {{var_pointer}} = 0;
    __typeof__({{scalar}}) *__cape_a = __cape_inout, *__cape_b = (void *)__cape_in;
    (void)__cape_t;
    for (int __cape_k = 0; __cape_k < {{n}}; __cape_k++, __cape_a++, __cape_b++) {
        {{combine_statement}}
    }
}
/*@ user_init */
    __typeof__({{of}}) *__cape_rorig_{{var}} = &({{of}});
    __typeof__({{of}}) {{var}};
    {
        __typeof__({{of}}) *__cape_priv = &{{var}};
        __typeof__({{of}}) *__cape_orig = __cape_rorig_{{var}};
        (void)__cape_orig;
        {{init}}
    }
/*@ user_out */
    __cape_reduce((void *)__cape_rorig_{{var}}, (const void *)&{{var}}, sizeof {{var}}, {{combine}});
/*@ user_combine_fn */

/* capecc: reduction({{op}}: {{item}}) of the #pragma omp {{construct}} at {{location}} */
static void {{combine}}(void *__cape_inout, const void *__cape_in)
{
    {{inout_pointer}} = __cape_inout;
    {{in_pointer}} = (void *)__cape_in;
    {{combine_statement}}
}
/*@ zero_init */
__builtin_memset(__cape_priv, 0, sizeof *__cape_priv);
/*@ builtin_init */
*__cape_priv = {{identity}};
/*@ builtin_combine */
*__cape_a = {{combined}};
