"""Implementation branch coverage of compiled harnesses: C through gcov, Java through the source
instrumenter (tools/emitters/java/SpeculaCovInstrument.java). Expected arms follow from the
arguments the tiny systems are run with; the Java test also checks that the instrumented program
computes what the original computes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from specula.bench.harness import run_harness
from specula.bench.pycov import merge

SYSTEMS = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"
needs_gcc = pytest.mark.skipif(not (shutil.which("gcc") and shutil.which("gcov")), reason="gcc/gcov not on PATH")
needs_javac = pytest.mark.skipif(not (shutil.which("javac") and shutil.which("java")), reason="javac/java not on PATH")

C_SYSTEM = """\
int classify(int x) {
    int y = 0;
    if (x > 0)
        y = 1;
    else
        y = 2;
    if (x > 5)
        y += 10;
    return y;
}
"""
C_HARNESS = """\
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int classify(int x);
int main(int argc, char **argv) {
    const char *out = ".";
    int runs = 1, sum = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--out")) out = argv[++i];
        else if (!strcmp(argv[i], "--runs")) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed")) i++;
        else sum += classify(atoi(argv[i]));
    }
    for (int r = 0; r < runs; r++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/trace-%03d.ndjson", out, r);
        FILE *f = fopen(path, "w");
        fprintf(f, "{\\"kind\\": \\"result\\", \\"sum\\": %d}\\n", sum);
        fclose(f);
    }
    return 0;
}
"""


def _c_system(root: Path, args: list[str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "sysmod.c").write_text(C_SYSTEM)
    (root / "harness.c").write_text(C_HARNESS)
    cmd = json.dumps(["{build}/h", *args])
    (root / "task.yaml").write_text(
        'name: "tinyc"\nlanguage: "c"\nspecModule: "tinyc"\n'
        'harness:\n  build:\n    - ["gcc", "-O2", "-o", "{build}/h", "sysmod.c", "harness.c"]\n'
        f"  command: {cmd}\n  timeout: 60\n")
    return root


def _arms_by_line(report: dict) -> dict[int, list[bool]]:
    got: dict[int, list[bool]] = {}
    for p in report["points"]:
        got.setdefault(p["line"], []).append(p["covered"])
    return got


@needs_gcc
def test_c_harness_branches_through_gcov(tmp_path, monkeypatch):
    """classify(1): the first IF's THEN, the second IF not taken; classify(-1): the first IF's ELSE."""
    monkeypatch.setenv("SPECULA_BUILD_DIR", str(tmp_path / "build"))
    sys_dir = _c_system(tmp_path / "tinyc", ["1"])
    run_harness(sys_dir, runs=1, seed=0, out_dir=tmp_path / "out", impl_coverage=True)
    one = json.loads((tmp_path / "out" / "impl-coverage.json").read_text())
    assert {p["file"] for p in one["points"]} == {"sysmod.c"}  # the harness is not the system
    by_line = _arms_by_line(one)
    assert set(by_line) == {3, 7}
    assert sorted(by_line[3]) == [False, True] and sorted(by_line[7]) == [False, True]
    assert one["branches"] == 4 and one["covered"] == 2 and one["missing"] == {"sysmod.c": [3, 7]}
    _c_system(tmp_path / "tinyc", ["-1"])  # same build directory: the first run's counters must not count
    run_harness(sys_dir, runs=1, seed=0, out_dir=tmp_path / "out2", impl_coverage=True)
    two = json.loads((tmp_path / "out2" / "impl-coverage.json").read_text())
    assert two["covered"] == 2 and sorted(_arms_by_line(two)[3]) == [False, True]
    then_1 = {(p["line"], p["arm"]) for p in one["points"] if p["covered"]}
    then_2 = {(p["line"], p["arm"]) for p in two["points"] if p["covered"]}
    assert [k for k in then_1 if k[0] == 3] != [k for k in then_2 if k[0] == 3]  # opposite arms of the first IF
    both = merge(one, two)
    assert both["covered"] == 3 and both["missing"] == {"sysmod.c": [7]}  # nobody was > 5
    # without impl_coverage the harness is built as written and no report is left
    run_harness(sys_dir, runs=1, seed=0, out_dir=tmp_path / "out3")
    assert not (tmp_path / "out3" / "impl-coverage.json").exists()


@needs_gcc
def test_spinlock_branch_points_are_its_tests(tmp_path, monkeypatch):
    """The bundled C spin lock: every branch gcov reports is on a line of spinlock.c with an
    ``if``/``while`` test, and the lock path (CAS succeeded) is reached."""
    monkeypatch.setenv("SPECULA_BUILD_DIR", str(tmp_path / "build"))
    run_harness("spinlock", runs=1, seed=1, out_dir=tmp_path, systems_dir=SYSTEMS, impl_coverage=True)
    rep = json.loads((tmp_path / "impl-coverage.json").read_text())
    src = (SYSTEMS / "spinlock" / "spinlock.c").read_text().splitlines()
    tests = {i for i, line in enumerate(src, 1) if re.search(r"\b(if|while)\s*\(", line)}
    assert rep["branches"] >= 4 and {p["file"] for p in rep["points"]} == {"spinlock.c"}
    assert {p["line"] for p in rep["points"]} <= tests
    lock_if = next(i for i, line in enumerate(src, 1) if "if (acquire_lock(l))" in line)
    assert any(p["covered"] for p in rep["points"] if p["line"] == lock_if)


JAVA_SYSTEM = """\
final class Sys {
    static int f(int x) {
        int y = 0;
        if (x > 0) y = 1; else y = 2;
        if (x > 5) { y += 10; }
        switch (x) {
            case 1: y++; break;
            case 2:
            case 3: y--; break;
            default: y *= 2;
        }
        for (int i = 0; i < x; i++) y++;
        try {
            if (x == 3) throw new IllegalStateException("three");
        } catch (IllegalStateException e) {
            y = -1;
        }
        if (x > 100) if (x > 200) y = 7; else y = 8;
        if (x < -10) y = 9; else if (x < -5) y = 10; else if (x < 0) y += 100;
        return y;
    }

    static String g(boolean a) {
        while (true) {
            if (a) return "a";
            a = !a;
        }
    }
}
"""
JAVA_HARNESS = """\
import java.io.FileWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

public final class SysHarness {
    public static void main(String[] args) throws IOException {
        String out = ".";
        int runs = 1;
        List<Integer> got = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = args[++i];
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--seed" -> i++;
                default -> got.add(Sys.f(Integer.parseInt(args[i])));
            }
        }
        for (int r = 0; r < runs; r++) {
            try (FileWriter w = new FileWriter(String.format("%s/trace-%03d.ndjson", out, r))) {
                w.write("{\\"kind\\": \\"result\\", \\"values\\": " + got + ", \\"g\\": \\"" + Sys.g(false) + "\\"}\\n");
            }
        }
    }
}
"""


def _java_system(root: Path, args: list[str]) -> Path:
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "Sys.java").write_text(JAVA_SYSTEM)
    (root / "src" / "SysHarness.java").write_text(JAVA_HARNESS)
    cmd = json.dumps(["java", "-cp", "{build}/classes", "SysHarness", *args])
    (root / "task.yaml").write_text(
        'name: "tinyjava"\nlanguage: "java"\nspecModule: "tinyjava"\n'
        'harness:\n  build:\n    - ["javac", "-d", "{build}/classes", "src/Sys.java", "src/SysHarness.java"]\n'
        f"  command: {cmd}\n  timeout: 120\n")
    return root


@pytest.mark.slow
@needs_javac
def test_java_harness_branches_through_the_instrumenter(tmp_path, monkeypatch):
    monkeypatch.setenv("SPECULA_BUILD_DIR", str(tmp_path / "build"))
    args = ["1", "3", "-7", "150"]
    sys_dir = _java_system(tmp_path / "tinyjava", args)
    plain = run_harness(sys_dir, runs=1, seed=0, out_dir=tmp_path / "plain")[0].read_text()
    run_harness(sys_dir, runs=1, seed=0, out_dir=tmp_path / "cov", impl_coverage=True)
    # the instrumented program computes what the original computes
    assert (tmp_path / "cov" / "trace-000.ndjson").read_text() == plain
    rep = json.loads((tmp_path / "cov" / "impl-coverage.json").read_text())
    assert {p["file"] for p in rep["points"]} == {"src/Sys.java"}
    got: dict[tuple[int, str], list[bool]] = {}
    for p in rep["points"]:
        got.setdefault((p["line"], p["arm"]), []).append(p["covered"])
    assert {k: sorted(v) for k, v in got.items()} == {
        (4, "then"): [True], (4, "else"): [True],            # 1, 3, 150 / -7
        (5, "then"): [True], (5, "else"): [True],            # 150 / the others
        (6, "case 1"): [True], (6, "case 3"): [True], (6, "default"): [True],  # 1 / 3 / -7, 150 (case 2 falls through)
        (12, "body"): [True],                                # 1, 3, 150
        (13, "catch 1"): [True], (14, "then"): [True], (14, "else"): [True],  # 3 throws
        # outer IF: 150 / the others; inner IF: nothing > 200, 150 takes its ELSE
        (18, "then"): [False, True], (18, "else"): [True, True],
        # x < -10: nobody; x < -5: -7 / 1, 3, 150; x < 0: nobody left / 1, 3, 150
        (19, "then"): [False, False, True], (19, "else"): [True, True, True],
        (24, "body"): [True], (25, "then"): [True], (25, "else"): [True],  # g(false): one turn, then "a"
    }
    assert rep["branches"] == 24 and rep["covered"] == 21


@needs_gcc
def test_cli_spinlock_impl_coverage_then_coverage_report(tmp_path, monkeypatch, capsys):
    """`bench traces spinlock --impl-coverage` leaves impl-coverage.json beside the traces;
    `specula coverage` reports it under the spec's actions."""
    from specula.cli import main

    monkeypatch.setenv("SPECULA_BUILD_DIR", str(tmp_path / "build"))
    rc = main(["bench", "traces", "spinlock", "--runs", "1", "--seed", "2", "--out", str(tmp_path / "t"),
               "--impl-coverage", "--json"])
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert d["impl_branches"] >= 4 and 0 < d["impl_covered"] <= d["impl_branches"]
    ref = SYSTEMS / "spinlock"
    rc = main(["coverage", str(ref / "ref" / "spin.tla"), "--traces", str(tmp_path / "t"), "--mapping",
               str(ref / "mapping.yaml"), "--no-branches", "--json"])
    assert rc == 0
    cov = json.loads(capsys.readouterr().out)
    assert cov["summary"]["impl_branches"] == d["impl_branches"]
    assert cov["summary"]["impl_branches_covered"] == d["impl_covered"]


@pytest.mark.slow
@needs_javac
def test_mutex_steering_counts_java_branches(tmp_path, monkeypatch):
    """The bundled Java mutex under --until-coverage: its branch points are in Mutex.java and
    WaitQueue.java (MutexHarness is the harness), and the lock() fast path's test is reached."""
    from specula.bench.steer import until_coverage

    monkeypatch.setenv("SPECULA_BUILD_DIR", str(tmp_path / "build"))
    res = until_coverage("mutex", tmp_path / "out", seed=1, batch=1, patience=1, max_rounds=2, systems_dir=SYSTEMS)
    impl = json.loads((tmp_path / "out" / "impl-coverage.json").read_text())
    assert res.impl is not None and res.impl["branches"] == impl["branches"] > 0
    assert {p["file"] for p in impl["points"]} <= {"src/Mutex.java", "src/WaitQueue.java", "src/MutexTracer.java"}
    src = (SYSTEMS / "mutex" / "src" / "Mutex.java").read_text().splitlines()
    fast = next(i for i, line in enumerate(src, 1) if "// fast path" in line)
    assert any(p["covered"] for p in impl["points"] if p["file"] == "src/Mutex.java" and p["line"] == fast)
