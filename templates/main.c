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
/*@ stdin_reader */

/* capecc: this file reads stdin; every rank gets rank 0's input at the latest when the first
   parallel region starts (a read inside `single` or `master` runs on one rank only) */
__attribute__((constructor)) static void __cape_stdin_reader_file(void)
{
    __cape_stdin_reader();
}
