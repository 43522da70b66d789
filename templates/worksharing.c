/*@ for */
{ /* capecc: #pragma omp {{construct}} at {{location}} */
{{originals}}{{loop_vars}}{{levels}}    unsigned long long __cape_n = {{product}}, __cape_lo, __cape_hi, __cape_end, __cape_k;
    __cape_loop __cape_l;
{{privates}}    {{init}}(&__cape_l, __cape_n, {{schedule}}, {{chunk}});
    {{chunks}} (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
{{chunk_loop}}{{indices}}{{body}}
        }
{{last}}{{reductions}}    __cape_loop_end(&__cape_l, {{nowait}});
}
/*@ level */
    __typeof__({{var}}) __cape_lb{{j}} = {{lb}};
    __typeof__(__cape_lb{{j}} + ({{ub}})) __cape_ub{{j}} = {{ub}};
    __typeof__(__cape_ub{{j}}) __cape_lbc{{j}} = __cape_lb{{j}};
    long long __cape_step{{j}} = {{step}};
    unsigned long long __cape_n{{j}} = 0;
    {{trip_count}}
/*@ trip_lt */
if (__cape_step{{j}} > 0 && __cape_lbc{{j}} < __cape_ub{{j}})
        __cape_n{{j}} = ((unsigned long long)__cape_ub{{j}} - (unsigned long long)__cape_lbc{{j}} - 1)
                   / (unsigned long long)__cape_step{{j}} + 1;
/*@ trip_le */
if (__cape_step{{j}} > 0 && __cape_lbc{{j}} <= __cape_ub{{j}})
        __cape_n{{j}} = ((unsigned long long)__cape_ub{{j}} - (unsigned long long)__cape_lbc{{j}})
                   / (unsigned long long)__cape_step{{j}} + 1;
/*@ trip_gt */
if (__cape_step{{j}} < 0 && __cape_lbc{{j}} > __cape_ub{{j}})
        __cape_n{{j}} = ((unsigned long long)__cape_lbc{{j}} - (unsigned long long)__cape_ub{{j}} - 1)
                   / (unsigned long long)-__cape_step{{j}} + 1;
/*@ trip_ge */
if (__cape_step{{j}} < 0 && __cape_lbc{{j}} >= __cape_ub{{j}})
        __cape_n{{j}} = ((unsigned long long)__cape_lbc{{j}} - (unsigned long long)__cape_ub{{j}})
                   / (unsigned long long)-__cape_step{{j}} + 1;
/*@ trip_ne */
if (__cape_step{{j}} > 0 && __cape_lbc{{j}} < __cape_ub{{j}})
        __cape_n{{j}} = ((unsigned long long)__cape_ub{{j}} - (unsigned long long)__cape_lbc{{j}} - 1)
                   / (unsigned long long)__cape_step{{j}} + 1;
    else if (__cape_step{{j}} < 0 && __cape_lbc{{j}} > __cape_ub{{j}})
        __cape_n{{j}} = ((unsigned long long)__cape_lbc{{j}} - (unsigned long long)__cape_ub{{j}} - 1)
                   / (unsigned long long)-__cape_step{{j}} + 1;
/*@ loop_var_declared */
    {{decl}};
/*@ loop_var_private */
    __CAPE_COPY_BEGIN __typeof__({{of}}) {{var}} __attribute__((unused)); __CAPE_COPY_END
/*@ chunk_user_variable */
        for (__cape_k = __cape_lo, __cape_end = __cape_hi,
             {{var}} = (__typeof__({{var}}))((unsigned long long)__cape_lb0
                                         + __cape_lo * (unsigned long long)__cape_step0);
             __cape_k < __cape_end;
             __cape_k++, {{var}} += (__typeof__({{var}} - {{var}}))__cape_step0) {
/*@ chunk_collapsed */
        for (__cape_k = __cape_lo, __cape_end = __cape_hi{{starts}};
             __cape_k < __cape_end;
             __cape_k++, {{next}}) {
/*@ collapsed_digit */
    unsigned long long __cape_d{{j}};
/*@ collapsed_start_outer */
,
             {{var}} = (__typeof__({{var}}))((unsigned long long)__cape_lb{{j}}
                 + ({{rest}} % __cape_n{{j}}) * (unsigned long long)__cape_step{{j}})
/*@ collapsed_start_inner */
,
             __cape_d{{j}} = {{rest}} % __cape_n{{j}},
             {{var}} = (__typeof__({{var}}))((unsigned long long)__cape_lb{{j}}
                 + __cape_d{{j}} * (unsigned long long)__cape_step{{j}})
/*@ collapsed_next_outer */
(void)({{var}} += (__typeof__({{var}} - {{var}}))__cape_step{{j}})
/*@ collapsed_next_inner */
(++__cape_d{{j}} < __cape_n{{j}}
                 ? (void)({{var}} += (__typeof__({{var}} - {{var}}))__cape_step{{j}})
                 : (void)(__cape_d{{j}} = 0, {{var}} = __cape_lb{{j}}, {{outer}}))
/*@ sections */
{ /* capecc: #pragma omp {{construct}} at {{location}} */
{{originals}}    unsigned long long __cape_lo, __cape_hi, __cape_k;
    __cape_loop __cape_l;
{{privates}}    __cape_loop_init(&__cape_l, {{count}}, CAPE_SCHED_STATIC, 1);
    while (__cape_loop_next(&__cape_l, &__cape_lo, &__cape_hi))
        for (__cape_k = __cape_lo; __cape_k < __cape_hi; __cape_k++)
            switch (__cape_k) {
{{cases}}            }
{{last}}{{reductions}}    __cape_loop_end(&__cape_l, {{nowait}});
}
/*@ section_case */
            case {{index}}:
{{body}}
                break;
/*@ last_block */
    if (__cape_loop_is_last(&__cape_l)) {
{{last_vars}}{{lastprivate_out}}    }
/*@ last_var */
        {{var}} = (__typeof__({{var}}))((unsigned long long)__cape_lb{{j}} + __cape_n{{j}} * (unsigned long long)__cape_step{{j}});
/*@ linear_init */
    __typeof__({{of}}) *__cape_orig_{{var}} = &{{of}};
    __typeof__({{of}}) __cape_lin0_{{var}} = *__cape_orig_{{var}}, {{var}};
    long long __cape_linstep_{{var}} = (long long)({{step}});
    __cape_rank_barrier(); /* every copy-in before any copy-out of a thread of this rank */
/*@ linear_iteration */
            {{var}} = (__typeof__({{var}}))(__cape_lin0_{{var}} + (long long)__cape_k * __cape_linstep_{{var}});
/*@ original */
    __typeof__({{of}}) *__cape_orig_{{var}} = &{{of}};
/*@ private */
    __CAPE_COPY_BEGIN __typeof__({{of}}) {{var}} __attribute__((unused)); __CAPE_COPY_END
/*@ firstprivate */
    __CAPE_COPY_BEGIN __typeof__({{of}}) {{var}} __attribute__((unused)); __CAPE_COPY_END
    __CAPE_CLAUSE_COPY(&{{var}}, __cape_orig_{{var}}, sizeof {{var}});
/*@ firstlastprivate */
    __CAPE_COPY_BEGIN __typeof__({{of}}) {{var}} __attribute__((unused)); __CAPE_COPY_END
    __CAPE_CLAUSE_COPY(&{{var}}, __cape_orig_{{var}}, sizeof {{var}});
    __cape_rank_barrier(); /* every copy-in before any copy-out of a thread of this rank */
/*@ lastprivate_out */
        __CAPE_CLAUSE_COPY(__cape_orig_{{var}}, &{{var}}, sizeof {{var}});
/*@ reduction_init */
    __CAPE_COPY_BEGIN __typeof__({{of}}) {{var}} __attribute__((unused)) = {{identity}}; __CAPE_COPY_END
/*@ reduction_out */
    { /* a copy's address goes to the runtime: the private copy's never escapes, so the
         backend keeps it in a register across the loop (stores through pointers of its type
         cannot be taken for stores to it) */
        __typeof__({{var}}) __cape_partial_{{var}} = {{var}};
        __cape_reduce((void *)__cape_orig_{{var}}, (const void *)&__cape_partial_{{var}}, sizeof {{var}}, {{combine}});
    }
/*@ combine_decl */
static void {{combine}}(void *__cape_inout, const void *__cape_in);
/*@ combine_fn */

/* capecc: reduction({{op}}: {{var}}) of the #pragma omp {{construct}} at {{location}} */
static void {{combine}}(void *__cape_inout, const void *__cape_in)
{
    {{inout_pointer}} = __cape_inout;
    {{in_pointer}} = (void *)__cape_in;
    *__cape_a = {{combined}};
}
