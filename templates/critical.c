/*@ update_loops */
{ /* capecc: #pragma omp critical at {{location}}: mergeable updates in loops */
{{body}}
}
/*@ store */
(*(__typeof__(&({{lvalue}})))__cape_store_report((void *)&({{lvalue}}), sizeof({{lvalue}})))
/*@ section */
{ /* capecc: #pragma omp {{construct}} at {{location}}: any code, under a lock shared by the ranks
     (in a team this rank runs alone, the lock word of the name, as libgomp's) */
    extern unsigned int __cape_critical_lock_{{name}};
    const int __cape_section_direct = __CAPE_TEAM_DIRECT();
    if (__cape_section_direct)
        __cape_mutex_lock(&__cape_critical_lock_{{name}});
    else
        __cape_critical_begin("{{name}}");
{{body}}
    if (__cape_section_direct)
        __cape_mutex_unlock(&__cape_critical_lock_{{name}});
    else
        __cape_critical_end("{{name}}");
}
/*@ updates_or_section */
{ /* capecc: #pragma omp critical at {{location}}: updates, merged as updates unless the program
     has general sections named "{{name}}" (their files define the lock word), which they must
     exclude: then it runs as one of them */
    extern unsigned int __cape_critical_lock_{{name}} __attribute__((weak));
    if (&__cape_critical_lock_{{name}} != 0)
{{section}}
    else
{{updates}}
}
/*@ mixed_refused */
__cape_critical_mixed("{{location}}", "{{name}}");
/*@ section_lock */
/* capecc: the lock word of `critical` sections named "{{name}}" in teams of one rank, one for
   the program (weak: every file that has such a section defines it) */
unsigned int __cape_critical_lock_{{name}} __attribute__((weak));
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
