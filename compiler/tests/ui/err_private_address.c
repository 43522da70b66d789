/* the address of a variable private to the region's threads stored in shared memory: an
   array decaying, a member, a clause's private copy, through a cast; a private pointer and a
   shared variable's address are fine */
struct pair {
    int a, b;
};
int *shared_ptr;
long where;
struct holder {
    int *p;
} hold;
int main(void)
{
    int outer = 0, copy = 0;
    int *table[8];
#pragma omp parallel private(copy)
    {
        int buf[4] = {0};
        struct pair pr = {1, 2};
        int *mine = buf;
        mine = &outer;
        shared_ptr = buf;
        table[0] = &pr.b;
        hold.p = &copy;
        shared_ptr = (int *)&buf[1] + 1;
        shared_ptr = &outer;
    }
    return outer + copy + (int)where + (table[0] != 0);
}
