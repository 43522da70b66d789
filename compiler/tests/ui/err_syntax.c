int main(void)
{
    int s = 0
    return s;
}
