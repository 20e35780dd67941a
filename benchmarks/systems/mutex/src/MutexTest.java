import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** Unit tests (no framework): javac -d out *.java && java -ea -cp out MutexTest */
public final class MutexTest {
    static void check(boolean cond, String what) {
        if (!cond) throw new AssertionError(what);
    }

    public static void main(String[] args) throws Exception {
        Mutex m = new Mutex();
        check(!m.isLocked(), "starts unlocked");
        check(m.tryLock(), "tryLock on a free mutex succeeds");
        check(!m.tryLock(), "tryLock on a held mutex fails");
        boolean[] other = new boolean[1];
        Thread t = new Thread(() -> other[0] = m.tryLock());
        t.start();
        t.join(2000);
        check(!t.isAlive() && !other[0], "tryLock never blocks");
        m.unlock();
        check(!m.isLocked(), "unlock clears the flag");

        // a blocked lock() parks on the wait queue and is woken by unlock()
        m.lock();
        CountDownLatch got = new CountDownLatch(1);
        Thread waiter = new Thread(() -> { m.lock(); got.countDown(); m.unlock(); });
        waiter.start();
        while (m.waiters() == 0) Thread.onSpinWait();
        check(got.getCount() == 1, "waiter blocks while held");
        m.unlock();
        check(got.await(5, java.util.concurrent.TimeUnit.SECONDS), "unlock wakes the waiter");
        waiter.join();
        check(m.waiters() == 0, "queue drained");

        // mutual exclusion under contention, mixing lock() and tryLock()
        AtomicInteger inside = new AtomicInteger();
        long[] counter = new long[1];
        Thread[] ts = new Thread[4];
        for (int i = 0; i < ts.length; i++) {
            final int id = i;
            ts[i] = new Thread(() -> {
                for (int k = 0; k < 20000; k++) {
                    if ((k + id) % 3 == 0) { while (!m.tryLock()) Thread.onSpinWait(); } else m.lock();
                    check(inside.incrementAndGet() == 1, "mutual exclusion");
                    counter[0]++;
                    inside.decrementAndGet();
                    m.unlock();
                }
            });
            ts[i].start();
        }
        for (Thread x : ts) x.join();
        check(counter[0] == 80000, "no lost updates: " + counter[0]);
        check(!m.isLocked() && m.waiters() == 0, "clean at the end");
        System.out.println("mutex: all tests passed");
    }
}
