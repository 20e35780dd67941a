import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A sleeping mutex with a wait queue, in the style of Asterinas' ostd::sync::Mutex.
 *
 * <ul>
 *   <li>{@link #tryLock()}: one CAS on the lock flag; never blocks.</li>
 *   <li>{@link #lock()}: fast path is a tryLock; otherwise loop: enqueue on the wait queue,
 *       try again (the lock may have been released meanwhile), and park until woken. A woken
 *       thread is not handed the lock: it re-enqueues at the tail and competes with newcomers
 *       (barging is allowed, as in Asterinas).</li>
 *   <li>{@link #unlock()}: under the wait-queue lock, pop the first waiter and clear the flag;
 *       then wake the popped waiter.</li>
 * </ul>
 */
public final class Mutex {
    private final AtomicBoolean locked = new AtomicBoolean(false);
    private final WaitQueue queue = new WaitQueue();
    private final MutexTracer tracer;

    public Mutex() {
        this(MutexTracer.NONE);
    }

    Mutex(MutexTracer tracer) {
        this.tracer = tracer;
    }

    private boolean acquireLock() {
        return locked.compareAndSet(false, true);
    }

    public boolean tryLock() {
        if (acquireLock()) {
            tracer.acquired(true, null);
            return true;
        }
        if (tracer.enabled()) {
            synchronized (queue) { // releases happen under this lock: the flag cannot clear meanwhile
                if (locked.get()) tracer.tryFailed();
            }
        }
        return false;
    }

    public void lock() {
        if (acquireLock()) { // fast path
            tracer.acquired(false, null);
            return;
        }
        WaitQueue.Waiter me = new WaitQueue.Waiter(Thread.currentThread(), Thread.currentThread().getName());
        while (true) {
            synchronized (queue) {
                queue.enqueue(me);
                tracer.enqueued(queue.names());
            }
            if (acquireLock()) {
                synchronized (queue) {
                    queue.remove(me); // still queued unless a release popped us meanwhile
                    tracer.acquired(false, queue.names());
                }
                return;
            }
            me.waitForWake();
        }
    }

    public void unlock() {
        WaitQueue.Waiter next;
        synchronized (queue) {
            next = queue.pollFirst();
            tracer.released(next == null ? null : next.name, queue.names());
            locked.set(false);
        }
        if (next != null) next.wake();
    }

    public boolean isLocked() {
        return locked.get();
    }

    int waiters() {
        return queue.size();
    }
}
