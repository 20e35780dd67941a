/* spinlock.c: see spinlock.h.
 *
 * Instrumentation: when built with -DSPINLOCK_TRACE the hooks in spinlock_trace.h are called at
 * the linearization points: lock() entry, a successful CAS (while the lock is held) and the
 * release (still held: the event is recorded before the releasing store).
 */
#include "spinlock.h"

#ifdef SPINLOCK_TRACE
#include "spinlock_trace.h"
#else
#define spin_trace_lock_call(l) ((void)0)
#define spin_trace_acquired(l, via_try) ((void)0)
#define spin_trace_release(l) ((void)0)
#endif

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

void spin_init(spinlock_t *l) { atomic_init(&l->locked, false); }

static bool acquire_lock(spinlock_t *l) {
    bool expected = false;
    return atomic_compare_exchange_strong_explicit(&l->locked, &expected, true, memory_order_acquire,
                                                   memory_order_relaxed);
}

void spin_lock(spinlock_t *l) {
    spin_trace_lock_call(l);
    for (;;) {
        if (acquire_lock(l)) {
            spin_trace_acquired(l, false);
            return;
        }
        /* test-and-test-and-set: spin on plain loads so the cache line stays shared */
        while (atomic_load_explicit(&l->locked, memory_order_relaxed)) cpu_relax();
    }
}

bool spin_try_lock(spinlock_t *l) {
    if (acquire_lock(l)) {
        spin_trace_acquired(l, true);
        return true;
    }
    return false;
}

void spin_unlock(spinlock_t *l) {
    spin_trace_release(l);
    atomic_store_explicit(&l->locked, false, memory_order_release);
}

bool spin_is_locked(spinlock_t *l) { return atomic_load_explicit(&l->locked, memory_order_relaxed); }
