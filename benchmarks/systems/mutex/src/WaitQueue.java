import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * A FIFO queue of parked threads, in the style of Asterinas' ostd::sync::WaitQueue: a waiter
 * enqueues itself, re-checks its condition, and parks until a waker pops it and wakes it.
 *
 * <p>The queue's monitor is its internal lock; callers that must make several steps atomic with
 * respect to enqueue/dequeue (the mutex's release) synchronize on the queue themselves.
 */
final class WaitQueue {
    /** One blocked thread. A waiter is woken at most once per enqueue. */
    static final class Waiter {
        final Thread thread;
        final String name;
        private final AtomicBoolean hasWoken = new AtomicBoolean(false);

        Waiter(Thread thread, String name) {
            this.thread = thread;
            this.name = name;
        }

        /** Park until woken; consumes the wake-up token. Spurious unparks are absorbed. */
        void waitForWake() {
            while (!hasWoken.compareAndSet(true, false)) {
                LockSupport.park(this);
            }
        }

        /** Wake the waiter; false if it already had an unconsumed wake-up. */
        boolean wake() {
            if (hasWoken.getAndSet(true)) return false;
            LockSupport.unpark(thread);
            return true;
        }
    }

    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

    synchronized void enqueue(Waiter w) {
        waiters.addLast(w);
    }

    /** Remove w if still queued (the waiter got what it waited for without being woken). */
    synchronized boolean remove(Waiter w) {
        return waiters.remove(w);
    }

    /** Pop the first waiter, or null. The caller wakes it (outside the lock). */
    synchronized Waiter pollFirst() {
        return waiters.pollFirst();
    }

    synchronized int size() {
        return waiters.size();
    }

    synchronized java.util.List<String> names() {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (Waiter w : waiters) out.add(w.name);
        return out;
    }
}
