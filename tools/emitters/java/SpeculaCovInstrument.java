import com.sun.source.tree.BlockTree;
import com.sun.source.tree.CaseTree;
import com.sun.source.tree.CatchTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.EnhancedForLoopTree;
import com.sun.source.tree.ForLoopTree;
import com.sun.source.tree.IfTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.StatementTree;
import com.sun.source.tree.SwitchExpressionTree;
import com.sun.source.tree.SwitchTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.TryTree;
import com.sun.source.tree.WhileLoopTree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Implementation branch coverage of a Java system (specula bench traces --until-coverage).
 *
 * <pre>java SpeculaCovInstrument.java --out DIR --points FILE SRC.java...</pre>
 *
 * parses each SRC with javac's own parser and writes DIR/SRC (DIR/&lt;name&gt;.java for an absolute SRC), the same source with a
 * counter call at the start of every branch arm — the THEN and ELSE arm of each {@code if} (an
 * {@code else} is added where there is none), each loop body, each {@code case} with statements,
 * each {@code catch} — and DIR/Cov.java, the counters (package {@code speculacov}; at exit they are
 * appended to the file named by the environment variable SPECULA_IMPL_COUNTS as "id count"
 * lines). Only insertions on the same line: line numbers stay those of SRC. FILE gets one line per
 * branch point: id, source as given, line of the branching statement, arm, first line of the arm
 * (0: an added ELSE), tab-separated. {@code ?:}, {@code &&} and {@code ||} are not branch points.
 */
public final class SpeculaCovInstrument {
    private record Edit(long pos, boolean closer, int key, int seq, String text) {}

    private static final String HIT = "speculacov.Cov.hit(";

    public static void main(String[] args) throws IOException {
        Path out = null;
        Path pointsFile = null;
        List<Path> sources = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--points" -> pointsFile = Path.of(args[++i]);
                default -> sources.add(Path.of(args[i]));
            }
        }
        if (out == null || pointsFile == null || sources.isEmpty()) {
            System.err.println("usage: java SpeculaCovInstrument.java --out DIR --points FILE SRC.java...");
            System.exit(2);
        }
        Files.createDirectories(out);
        JavaCompiler jc = ToolProvider.getSystemJavaCompiler();
        StringBuilder points = new StringBuilder();
        int[] next = {0};
        try (StandardJavaFileManager fm = jc.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            for (Path src : sources) {
                String text = Files.readString(src, StandardCharsets.UTF_8);
                JavacTask task = (JavacTask) jc.getTask(null, fm, d -> {}, List.of("-proc:none"), null,
                        fm.getJavaFileObjects(src.toFile()));
                List<Edit> edits = new ArrayList<>();
                for (CompilationUnitTree cu : task.parse()) {
                    new Scanner(cu, Trees.instance(task).getSourcePositions(), src.toString(), edits, points, next)
                            .scan(cu, null);
                }
                Path dest = src.isAbsolute() ? out.resolve(src.getFileName().toString()) : out.resolve(src.normalize());
                Files.createDirectories(dest.toAbsolutePath().getParent());
                Files.writeString(dest, apply(text, edits), StandardCharsets.UTF_8);
            }
        }
        Files.writeString(pointsFile, points.toString(), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("Cov.java"), runtime(next[0]), StandardCharsets.UTF_8);
    }

    /** Insertions in source order; at one position closers first (inner first), then openers (outer first). */
    private static String apply(String text, List<Edit> edits) {
        edits.sort(Comparator.comparingLong(Edit::pos)
                .thenComparing(e -> e.closer() ? 0 : 1)
                .thenComparingInt(e -> e.closer() ? -e.key() : e.key())
                .thenComparingInt(Edit::seq));
        StringBuilder sb = new StringBuilder(text.length() + edits.size() * 32);
        int at = 0;
        for (Edit e : edits) {
            sb.append(text, at, (int) e.pos());
            sb.append(e.text());
            at = (int) e.pos();
        }
        sb.append(text.substring(at));
        return sb.toString();
    }

    private static String runtime(int n) {
        return "package speculacov;\n"
                + "/** Branch counters written by SpeculaCovInstrument (specula implementation coverage). */\n"
                + "public final class Cov {\n"
                + "    private static final java.util.concurrent.atomic.AtomicLongArray HITS =\n"
                + "        new java.util.concurrent.atomic.AtomicLongArray(" + Math.max(n, 1) + ");\n"
                + "    static {\n"
                + "        String out = System.getenv(\"SPECULA_IMPL_COUNTS\");\n"
                + "        if (out != null) Runtime.getRuntime().addShutdownHook(new Thread(() -> dump(out)));\n"
                + "    }\n"
                + "    private Cov() {}\n"
                + "    public static void hit(int id) { HITS.incrementAndGet(id); }\n"
                + "    private static synchronized void dump(String out) {\n"
                + "        StringBuilder sb = new StringBuilder();\n"
                + "        for (int i = 0; i < HITS.length(); i++) if (HITS.get(i) > 0) sb.append(i).append(' ').append(HITS.get(i)).append('\\n');\n"
                + "        try (java.io.FileWriter w = new java.io.FileWriter(out, true)) { w.write(sb.toString()); }\n"
                + "        catch (java.io.IOException e) { System.err.println(\"speculacov: cannot write \" + out + \": \" + e); }\n"
                + "    }\n"
                + "}\n";
    }

    private static final class Scanner extends TreeScanner<Void, Void> {
        private final CompilationUnitTree cu;
        private final SourcePositions pos;
        private final LineMap lines;
        private final String file;
        private final List<Edit> edits;
        private final StringBuilder points;
        private final int[] next;
        private int depth;

        Scanner(CompilationUnitTree cu, SourcePositions pos, String file, List<Edit> edits, StringBuilder points,
                int[] next) {
            this.cu = cu;
            this.pos = pos;
            this.lines = cu.getLineMap();
            this.file = file;
            this.edits = edits;
            this.points = points;
            this.next = next;
        }

        @Override
        public Void scan(Tree tree, Void p) {
            depth++;
            try {
                return super.scan(tree, p);
            } finally {
                depth--;
            }
        }

        private long start(Tree t) {
            return pos.getStartPosition(cu, t);
        }

        private long end(Tree t) {
            return pos.getEndPosition(cu, t);
        }

        private long line(long p) {
            return lines.getLineNumber(p);
        }

        private int point(Tree at, String arm, long target) {
            int id = next[0]++;
            points.append(id).append('\t').append(file).append('\t').append(line(start(at))).append('\t')
                    .append(arm).append('\t').append(target).append('\n');
            return id;
        }

        /** Replace statement s (a child of the current node) by { hit; s }. */
        private void wrap(Tree owner, StatementTree s, String arm) {
            long a = start(s);
            long b = end(s);
            if (a < 0 || b < 0) return;
            int id = point(owner, arm, line(a));
            int key = 2 * (depth + 1);
            edits.add(new Edit(a, false, key, id, "{ " + HIT + id + "); "));
            edits.add(new Edit(b, true, key, id, " }"));
        }

        /** Insert a hit at the start of a block's body (just after its brace). */
        private void intoBlock(Tree owner, BlockTree block, String arm) {
            long a = start(block);
            if (a < 0) return;
            int id = point(owner, arm, line(a));
            edits.add(new Edit(a + 1, false, 2 * (depth + 2), id, " " + HIT + id + ");"));
        }

        @Override
        public Void visitIf(IfTree t, Void p) {
            wrap(t, t.getThenStatement(), "then");
            if (t.getElseStatement() != null) {
                wrap(t, t.getElseStatement(), "else");
            } else if (end(t) >= 0) {
                int id = point(t, "else", 0);
                edits.add(new Edit(end(t), true, 2 * depth + 1, id, " else { " + HIT + id + "); }"));
            }
            return super.visitIf(t, p);
        }

        @Override
        public Void visitWhileLoop(WhileLoopTree t, Void p) {
            wrap(t, t.getStatement(), "body");
            return super.visitWhileLoop(t, p);
        }

        @Override
        public Void visitForLoop(ForLoopTree t, Void p) {
            wrap(t, t.getStatement(), "body");
            return super.visitForLoop(t, p);
        }

        @Override
        public Void visitEnhancedForLoop(EnhancedForLoopTree t, Void p) {
            wrap(t, t.getStatement(), "body");
            return super.visitEnhancedForLoop(t, p);
        }

        private void cases(Tree owner, List<? extends CaseTree> cases) {
            int k = 0;
            for (CaseTree c : cases) {
                k++;
                String arm = c.getExpressions().isEmpty() ? "default" : "case " + k;
                if (c.getCaseKind() == CaseTree.CaseKind.RULE) {
                    if (c.getBody() instanceof BlockTree b) intoBlock(owner, b, arm);
                    continue; // an expression or throw rule has no statement list to count in
                }
                List<? extends StatementTree> body = c.getStatements();
                if (body == null || body.isEmpty()) continue; // a label falling through to the next
                long a = start(body.get(0));
                if (a < 0) continue;
                int id = point(owner, arm, line(a));
                edits.add(new Edit(a, false, 2 * (depth + 2), id, HIT + id + "); "));
            }
        }

        @Override
        public Void visitSwitch(SwitchTree t, Void p) {
            cases(t, t.getCases());
            return super.visitSwitch(t, p);
        }

        @Override
        public Void visitSwitchExpression(SwitchExpressionTree t, Void p) {
            cases(t, t.getCases());
            return super.visitSwitchExpression(t, p);
        }

        @Override
        public Void visitTry(TryTree t, Void p) {
            int k = 0;
            for (CatchTree c : t.getCatches()) {
                intoBlock(t, c.getBlock(), "catch " + (++k));
            }
            return super.visitTry(t, p);
        }
    }
}
