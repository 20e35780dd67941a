/* Trace hooks called by spinlock.c when built with -DSPINLOCK_TRACE (implemented by harness.c). */
#ifndef SPINLOCK_TRACE_H
#define SPINLOCK_TRACE_H
#include <stdbool.h>
#include "spinlock.h"
void spin_trace_lock_call(spinlock_t *l);
void spin_trace_acquired(spinlock_t *l, bool via_try);
void spin_trace_release(spinlock_t *l);
#endif
