/* Unit tests: gcc -std=c11 -pthread -o test_spinlock spinlock.c test_spinlock.c && ./test_spinlock */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#include "spinlock.h"

static spinlock_t lock = SPINLOCK_INIT;
static long counter;
static atomic_int inside;

static void *hammer(void *arg) {
    long n = (long)arg;
    for (long i = 0; i < n; i++) {
        if (i % 3 == 0) {
            while (!spin_try_lock(&lock)) {}
        } else {
            spin_lock(&lock);
        }
        assert(atomic_fetch_add(&inside, 1) == 0); /* mutual exclusion */
        counter++;
        atomic_fetch_sub(&inside, 1);
        spin_unlock(&lock);
    }
    return NULL;
}

static void *try_while_held(void *arg) {
    (void)arg;
    return (void *)(long)spin_try_lock(&lock); /* must fail at once, never spin */
}

int main(void) {
    spin_init(&lock);
    assert(!spin_is_locked(&lock));
    assert(spin_try_lock(&lock));
    assert(spin_is_locked(&lock));
    assert(!spin_try_lock(&lock)); /* not reentrant: a second try fails */
    pthread_t t;
    void *res;
    pthread_create(&t, NULL, try_while_held, NULL);
    pthread_join(t, &res);
    assert(res == (void *)0);
    spin_unlock(&lock);
    assert(!spin_is_locked(&lock));

    enum { THREADS = 4, ITERS = 20000 };
    pthread_t ts[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&ts[i], NULL, hammer, (void *)(long)ITERS);
    for (int i = 0; i < THREADS; i++) pthread_join(ts[i], NULL);
    assert(counter == (long)THREADS * ITERS);
    assert(!spin_is_locked(&lock));
    printf("spinlock: all tests passed\n");
    return 0;
}
