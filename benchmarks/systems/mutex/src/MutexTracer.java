import java.util.List;

/**
 * Instrumentation hooks of {@link Mutex}, called at its linearization points. The default
 * implementation does nothing; the harness installs one that writes NDJSON traces.
 */
interface MutexTracer {
    /** Does the tracer want failed try-lock observations (costs a wait-queue lock)? */
    default boolean enabled() { return false; }

    /** The caller's CAS succeeded (the caller holds the mutex). viaTry: from tryLock(). */
    default void acquired(boolean viaTry, List<String> queueAfter) {}

    /** tryLock() failed while the mutex was held (called under the wait-queue lock). */
    default void tryFailed() {}

    /** The caller enqueued itself (called under the wait-queue lock). */
    default void enqueued(List<String> queueAfter) {}

    /** The holder releases: queue popped (woken may be null); called under the wait-queue lock. */
    default void released(String woken, List<String> queueAfter) {}

    MutexTracer NONE = new MutexTracer() {};
}
