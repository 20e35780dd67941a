/*
 * A test-and-test-and-set spin lock with try-lock, in the style of Asterinas' ostd::sync::SpinLock:
 * one atomic flag; lock() spins (relaxed loads, then a CAS) until the flag was clear; try_lock()
 * makes exactly one CAS attempt and never spins; unlock() is a release store.
 */
#ifndef SPINLOCK_H
#define SPINLOCK_H

#include <stdatomic.h>
#include <stdbool.h>

typedef struct {
    atomic_bool locked;
} spinlock_t;

#define SPINLOCK_INIT { false }

void spin_init(spinlock_t *l);
void spin_lock(spinlock_t *l);
bool spin_try_lock(spinlock_t *l);
void spin_unlock(spinlock_t *l);
bool spin_is_locked(spinlock_t *l);

#endif
