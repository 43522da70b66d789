/* diagnostics spell a user identifier that capecc renamed internally (`__cape_...`, which
   generated code uses) the way the user wrote it */
double *__cape_total;

int main(void)
{
#pragma omp parallel
    {
#pragma omp atomic
        __cape_total += 1;
    }
    return 0;
}
