/*@ entry */
        { (const void *)&{{var}}, sizeof {{size}}, { {{strides}} }, {{pointee}}, "{{name}}", "{{decl}}", "{{at}}" },
/*@ region */
    {
        /* the shared objects the region uses, named in the runtime's reports */
        const struct __cape_object __cape_objects_{{id}}[] = {
{{entries}}        };
        __cape_region_objects("{{what}}", __cape_objects_{{id}}, {{count}});
    }
/*@ region_empty */
    __cape_region_objects("{{what}}", (const struct __cape_object *)0, 0);
/*@ file */

/* capecc: the names of this file's shared objects, for the runtime's reports */
__attribute__((constructor)) static void __cape_file_objects(void)
{
    static const struct __cape_object __cape_file_objects_table[] = {
{{entries}}    };
    __cape_objects(__cape_file_objects_table, {{count}});
}
