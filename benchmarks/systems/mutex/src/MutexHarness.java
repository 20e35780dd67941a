import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.locks.LockSupport;

/**
 * Trace harness: java MutexHarness --runs N --seed S --out DIR [--threads T] [--ops K].
 * Run i (seed S+i): T threads named t1..tT share one Mutex; each performs K critical sections,
 * choosing lock() or tryLock() (a failed try is retried later) with its own seeded Random and
 * pausing inside and outside. Interleavings are real; the trace records their linearization.
 */
public final class MutexHarness {
    static final class Tracer implements MutexTracer {
        final SpeculaTrace tr;

        Tracer(SpeculaTrace tr) { this.tr = tr; }

        static String me() { return Thread.currentThread().getName(); }

        static String params() { return "{\"t\": " + SpeculaTrace.str(me()) + "}"; }

        @Override public boolean enabled() { return true; }

        @Override public void acquired(boolean viaTry, List<String> queueAfter) {
            String action = viaTry ? "TryAcquireLock" : "AcquireLock";
            if (queueAfter == null) {
                tr.step(action, me(), params(), "lock", "true", "pc." + me(), SpeculaTrace.str("locked"));
            } else {
                tr.step(action, me(), params(), "lock", "true", "pc." + me(), SpeculaTrace.str("locked"),
                        "queue", SpeculaTrace.strs(queueAfter));
            }
        }

        @Override public void tryFailed() {
            tr.stepIf("lock", "true", "TryAcquireLock", me(), params());
        }

        @Override public void enqueued(List<String> queueAfter) {
            tr.step("Enqueue", me(), params(), "pc." + me(), SpeculaTrace.str("waiting"),
                    "queue", SpeculaTrace.strs(queueAfter));
        }

        @Override public void released(String woken, List<String> queueAfter) {
            tr.step("ReleaseLock", me(), params(), "lock", "false", "pc." + me(), SpeculaTrace.str("idle"),
                    "queue", SpeculaTrace.strs(queueAfter));
        }
    }

    static void pause(Random rng, int maxMicros) {
        int us = rng.nextInt(maxMicros + 1);
        if (us > 0) LockSupport.parkNanos(us * 1000L);
        else Thread.yield();
    }

    static void runOne(Path path, long seed, int threads, int ops) throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= threads; i++) names.add("t" + i);
        try (SpeculaTrace tr = new SpeculaTrace(path, "mutex", names, seed)) {
            tr.initField("lock", "false");
            for (String n : names) tr.initField("pc." + n, SpeculaTrace.str("idle"));
            tr.initField("queue", "[]");
            Mutex m = new Mutex(new Tracer(tr));
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Thread> ts = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Random rng = new Random(seed * 1_000_003L + i);
                Thread t = new Thread(() -> {
                    try { start.await(); } catch (Exception e) { throw new RuntimeException(e); }
                    for (int done = 0; done < ops; ) {
                        if (rng.nextInt(10) < 4) {
                            if (!m.tryLock()) { pause(rng, 30); continue; }
                        } else {
                            m.lock();
                        }
                        pause(rng, 60); // critical section
                        m.unlock();
                        done++;
                        pause(rng, 20);
                    }
                }, names.get(i));
                ts.add(t);
                t.start();
            }
            for (Thread t : ts) t.join();
        }
    }

    public static void main(String[] args) throws Exception {
        int runs = 1, threads = 3, ops = 6;
        long seed = 0;
        String out = ".";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[i + 1]);
                case "--seed" -> seed = Long.parseLong(args[i + 1]);
                case "--out" -> out = args[i + 1];
                case "--threads" -> threads = Integer.parseInt(args[i + 1]);
                case "--ops" -> ops = Integer.parseInt(args[i + 1]);
                default -> { System.err.println("unknown option " + args[i]); System.exit(2); }
            }
        }
        for (int r = 0; r < runs; r++) {
            runOne(Path.of(out, String.format("trace-%03d.ndjson", r)), seed + r, threads, ops);
        }
    }
}
