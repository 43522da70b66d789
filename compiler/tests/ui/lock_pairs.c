typedef struct { unsigned long long w; } omp_lock_t;
void omp_set_lock(omp_lock_t *);
void omp_unset_lock(omp_lock_t *);
int total, hits[4];
double best;

int main(void)
{
    omp_lock_t lock, other;
#pragma omp parallel for
    for (int i = 0; i < 8; i++) {
        /* updates under a lock no general pair takes: merged as updates */
        omp_set_lock(&other);
        hits[i % 4] += 2;
        omp_unset_lock(&other);
        /* updates under a lock that a general pair (below) also takes: under the lock */
        omp_set_lock(&lock);
        total += i;
        hits[i % 4]++;
        if (i * 0.5 > best)
            best = i * 0.5;
        omp_unset_lock(&lock);
        omp_set_lock(&lock);
        if (total < 3)
            total = 0;
        omp_unset_lock(&lock);
    }
    return total;
}

int omp_test_lock(omp_lock_t *);
int tested;

void try_lock(omp_lock_t *lock)
{
#pragma omp parallel
    {
        if (omp_test_lock(lock)) {
            tested++;
            omp_unset_lock(lock);
        } else {
            tested += 0;
        }
    }
}
