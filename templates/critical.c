/*@ update_loops */
{ /* capecc: #pragma omp critical at {{location}}: mergeable updates in loops */
{{body}}
}
/*@ store */
(*(__typeof__(&({{lvalue}})))__cape_critical_store(&({{lvalue}}), sizeof({{lvalue}})))
/*@ section */
{ /* capecc: #pragma omp {{construct}} at {{location}}: any code, under a lock shared by the ranks */
    __cape_critical_begin("{{name}}");
{{body}}
    __cape_critical_end("{{name}}");
}
/*@ lock_pair */
{ /* capecc: a lock pair at {{location}}: any code, under a lock shared by the ranks */
    __cape_lock_set((void *)({{lock}}), {{nest}});
{{body}}
    __cape_lock_unset((void *)({{lock}}), {{nest}});
}
/*@ lock_test */
/* capecc: a lock test at {{location}}: the block runs under a lock shared by the ranks */
if (__cape_lock_test((void *)({{lock}}), {{nest}}))
{{body}}{{else}}
/*@ used */
/* capecc: this file has critical sections under locks shared by the ranks */
static void __attribute__((constructor)) __cape_critical_used_here(void) { __cape_critical_used(); }
