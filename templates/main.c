/*@ main */

/* capecc: the program starts in the runtime, which runs the user's main on every rank */
static int __cape_main_adapter(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    (void)envp;
    {{call}}
}

int main(int argc, char **argv, char **envp)
{
    return __cape_start(argc, argv, envp, __cape_main_adapter);
}
/*@ call_int */
return {{user_main}}({{arguments}});
/*@ call_void */
{{user_main}}({{arguments}});
    return 0;
