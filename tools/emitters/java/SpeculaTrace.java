import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes specula's NDJSON event trace (docs/traces.md) from instrumented Java code.
 *
 * <p>Thread-safe: a step takes the next number of one global sequence counter and is applied to
 * a shadow copy of the observed state under one short lock, so file order is sequence order.
 * Call {@link #step} at a linearization point while holding what makes that point atomic (right
 * after a successful CAS, before a releasing store, inside a wait-queue lock); the trace order
 * is then a valid linearization. {@link #stepIf} records an observation (e.g. a failed try-lock)
 * only if the shadow state at that position agrees with what the caller saw, which makes it
 * linearizable at that point.
 *
 * <p>State fields are named by paths: {@code "lock"} (top level) or {@code "pc.t1"} (key
 * {@code t1} of the per-node object {@code pc}); values are JSON text (use {@link #str},
 * {@link #bool}, {@link #strs}).
 */
public final class SpeculaTrace implements AutoCloseable {
    private final BufferedWriter out;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Object> state = new LinkedHashMap<>(); // name -> json text | Map<key, json>
    private long seq;
    private boolean started;

    public SpeculaTrace(Path path, String system, List<String> nodes, long seed) {
        try {
            out = Files.newBufferedWriter(path, StandardCharsets.UTF_8);
            out.write("{\"kind\": \"meta\", \"system\": " + str(system) + ", \"format\": 1, \"nodes\": "
                    + strs(nodes) + ", \"seed\": " + seed + "}\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Set a field of the initial state (before the first step). */
    public void initField(String path, String json) {
        lock.lock();
        try {
            if (started) throw new IllegalStateException("initField after the first step");
            assign(path, json);
        } finally {
            lock.unlock();
        }
    }

    /** Record a step: assignments are (path, json) pairs. Returns its sequence number. */
    public long step(String action, String actor, String paramsJson, String... assignments) {
        return stepIf(null, null, action, actor, paramsJson, assignments);
    }

    /**
     * Record a step only if the shadow field {@code guardPath} currently equals {@code guardJson}
     * (both null: always). Returns the sequence number, or 0 if not recorded.
     */
    public long stepIf(String guardPath, String guardJson, String action, String actor, String paramsJson,
                       String... assignments) {
        if (assignments.length % 2 != 0) throw new IllegalArgumentException("assignments come in pairs");
        lock.lock();
        try {
            if (!started) writeInit();
            if (guardPath != null && !guardJson.equals(read(guardPath))) return 0;
            for (int i = 0; i < assignments.length; i += 2) assign(assignments[i], assignments[i + 1]);
            seq++;
            StringBuilder sb = new StringBuilder();
            sb.append("{\"kind\": \"step\", \"seq\": ").append(seq)
              .append(", \"action\": ").append(str(action))
              .append(", \"actor\": ").append(actor == null ? "null" : str(actor))
              .append(", \"params\": ").append(paramsJson == null ? "{}" : paramsJson)
              .append(", \"input\": null, \"state\": ");
            renderState(sb);
            sb.append("}\n");
            out.write(sb.toString());
            return seq;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (!started) writeInit();
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            lock.unlock();
        }
    }

    private void writeInit() throws IOException {
        started = true;
        StringBuilder sb = new StringBuilder("{\"kind\": \"init\", \"state\": ");
        renderState(sb);
        out.write(sb.append("}\n").toString());
    }

    @SuppressWarnings("unchecked")
    private void assign(String path, String json) {
        int dot = path.indexOf('.');
        if (dot < 0) {
            state.put(path, json);
        } else {
            Object obj = state.computeIfAbsent(path.substring(0, dot), k -> new LinkedHashMap<String, String>());
            ((Map<String, String>) obj).put(path.substring(dot + 1), json);
        }
    }

    @SuppressWarnings("unchecked")
    private String read(String path) {
        int dot = path.indexOf('.');
        if (dot < 0) return (String) state.get(path);
        Object obj = state.get(path.substring(0, dot));
        return obj == null ? null : ((Map<String, String>) obj).get(path.substring(dot + 1));
    }

    @SuppressWarnings("unchecked")
    private void renderState(StringBuilder sb) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> e : state.entrySet()) {
            if (!first) sb.append(", ");
            first = false;
            sb.append(str(e.getKey())).append(": ");
            if (e.getValue() instanceof String s) {
                sb.append(s);
            } else {
                sb.append('{');
                boolean firstKey = true;
                for (Map.Entry<String, String> kv : ((Map<String, String>) e.getValue()).entrySet()) {
                    if (!firstKey) sb.append(", ");
                    firstKey = false;
                    sb.append(str(kv.getKey())).append(": ").append(kv.getValue());
                }
                sb.append('}');
            }
        }
        sb.append('}');
    }

    /** JSON text of a string. */
    public static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> {
                    if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }

    /** JSON text of a boolean. */
    public static String bool(boolean b) {
        return b ? "true" : "false";
    }

    /** JSON text of a list of strings. */
    public static String strs(List<String> items) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(str(items.get(i)));
        }
        return sb.append(']').toString();
    }
}
