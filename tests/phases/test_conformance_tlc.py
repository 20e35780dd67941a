"""Differential: specula's window verdicts equal TLC's on the same bound windows.

Each window is bound by specula (values printed as TLA+ with ``format_value``), then one TLC run
per spec decides every window: Init picks window k and sets its pre-state, Next takes the action
(parameters over their Next domains, the message from the window) and must land on its observed
post-state; the dumped states say which windows got there.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from specula.phases.conformance import spec_info, validate_windows
from specula.phases.runtime import build_model
from specula.tla.values import format_value
from specula.traces import iter_windows
from specula.traces.bind import Binder

SPECS = Path(__file__).resolve().parent.parent / "traces" / "specs"


def tlc_verdicts(module: str, windows, jar: Path, tmp: Path) -> dict:
    model, cfg = build_model(SPECS / f"{module}.tla", SPECS / f"{module}.cfg")
    binder = Binder(spec_info(model, cfg))
    rows = []
    for w in windows:
        b = binder.bind(w)
        pre = ", ".join(f"{k} |-> {format_value(v)}" for k, v in b.pre.items())
        post = ", ".join(f"{k} |-> {format_value(v)}" for k, v in b.post.items())
        rows.append(f"[pre |-> [{pre}], post |-> [{post}], m |-> {format_value(b.params['m'])}]")
    variables = list(binder.bind(windows[0]).pre)
    posts = list(binder.bind(windows[0]).post)
    text = (
        f"---- MODULE WinCheck ----\nEXTENDS {module}, TLC, Naturals, Sequences\nCONSTANTS n1, n2, n3\n"
        "VARIABLES wk, wok\nW == <<\n  " + ",\n  ".join(rows) + "\n>>\n"
        "WInit == /\\ wk \\in 1..Len(W) /\\ wok = FALSE\n"
        + "".join(f"          /\\ {v} = W[wk].pre.{v}\n" for v in variables)
        + "WNext == /\\ ~wok /\\ wok' = TRUE /\\ wk' = wk /\\ \\E s \\in Nodes : Handle(s, W[wk].m)\n"
        + "".join(f"          /\\ {v}' = W[wk].post.{v}\n" for v in posts)
        + "====\n"
    )
    (tmp / f"{module}.tla").write_text((SPECS / f"{module}.tla").read_text())
    (tmp / "WinCheck.tla").write_text(text)
    (tmp / "WinCheck.cfg").write_text(
        "CONSTANTS\n    Nodes = {n1, n2, n3}\n    n1 = n1\n    n2 = n2\n    n3 = n3\nINIT WInit\nNEXT WNext\n"
    )
    proc = subprocess.run(
        ["java", "-XX:+UseParallelGC", "-cp", str(jar), "tlc2.TLC", "-workers", "1", "-deadlock",
         "-dump", "states", "-config", "WinCheck.cfg", "WinCheck.tla"],
        cwd=tmp, capture_output=True, text=True, timeout=300,
    )
    assert "Model checking completed" in proc.stdout, proc.stdout[-2000:]
    dump = (tmp / "states.dump").read_text()
    reached = set()
    for block in re.split(r"^State \d+:\s*$", dump, flags=re.M):
        if re.search(r"^/\\ wok = TRUE\s*$", block, re.M):
            m = re.search(r"^/\\ wk = (\d+)\s*$", block, re.M)
            if m:
                reached.add(int(m.group(1)))
    return {w.id: (i in reached) for i, w in enumerate(windows, 1)}


@pytest.mark.tlc
@pytest.mark.parametrize("module", ["Election", "ElectionUnion", "ElectionFused"])
def test_window_verdicts_agree_with_tlc(module, tlc_jar, tmp_path):
    windows = list(iter_windows(SPECS / "windows_Handle.ndjson", []))
    expected = tlc_verdicts(module, windows, tlc_jar, tmp_path)
    model, cfg = build_model(SPECS / f"{module}.tla", SPECS / f"{module}.cfg")
    res = validate_windows(model, windows, cfg=cfg)
    got = {w.id: w.ok for w in res.windows}
    assert got == expected
    assert sum(expected.values()) == (6 if module == "Election" else 4)


@pytest.mark.tlc
def test_tlc_dump_trace_validates_against_its_own_spec(tlc_jar, tmp_path):
    """A real TLC -dumpTrace json counterexample: every step is a window of the spec that made it
    (parameters from TLC's context), and whole-trace mode follows it to the end."""
    from specula.phases.conformance import validate_files

    (tmp_path / "spin.tla").write_text((SPECS / "spin.tla").read_text())
    (tmp_path / "spin.cfg").write_text(
        "CONSTANTS\n    Threads = {1, 2, 3}\nINIT Init\nNEXT Next\nINVARIANT Deep\n")
    text = (tmp_path / "spin.tla").read_text().replace(
        "====", 'Deep == ~(pc[1] = "locked" /\\ pc[2] = "trying" /\\ pc[3] = "trying")\n====')
    (tmp_path / "spin.tla").write_text(text)
    subprocess.run(
        ["java", "-cp", str(tlc_jar), "tlc2.TLC", "-workers", "1", "-dumpTrace", "json", "cex.json",
         "-config", "spin.cfg", "spin.tla"],
        cwd=tmp_path, capture_output=True, timeout=300,
    )
    res = validate_files(tmp_path / "spin.tla", tmp_path / "spin.cfg", [tmp_path / "cex.json"], whole_trace=True)
    assert res.total >= 3 and res.passed == res.total, res.summary()
    (tr,) = res.traces
    assert tr.ok and tr.followed == tr.steps == res.total
