"""Per-window trace checking with real TLC: an independent oracle for the bundled systems.

For fully observed traces (every spec variable is a trace field of the same name), window k
passes iff the named action, taken from pre-state k with the trace's parameters, can reach
post-state k. One TLC run checks all windows of a trace set: Init picks a window, Next takes its
action and must land on its post-state; the dumped state space says which windows got there.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Window:
    trace: str
    seq: int
    action: str
    params: dict
    pre: dict
    post: dict


def read_windows(paths: list[Path]) -> list[Window]:
    out: list[Window] = []
    for path in paths:
        state: dict | None = None
        for line in Path(path).read_text().splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            ev = json.loads(line)
            if ev["kind"] == "init":
                state = ev["state"]
            elif ev["kind"] == "step":
                assert state is not None
                post = ev["state"] if "state" in ev else {**state, **ev["delta"]}
                out.append(Window(Path(path).name, ev["seq"], ev["action"], ev.get("params") or {}, state, post))
                state = post
    return out


def to_tla(v: object) -> str:
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, int):
        return str(v) if v >= 0 else f"(0 - {-v})"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "<<" + ", ".join(to_tla(x) for x in v) + ">>"
    if isinstance(v, dict):
        if not v:
            return "<<>>"
        return "(" + " @@ ".join(f"{json.dumps(k)} :> {to_tla(x)}" for k, x in v.items()) + ")"
    raise TypeError(f"cannot write {v!r} as TLA+")


def _record(state: dict) -> str:
    return "[" + ", ".join(f"{k} |-> {to_tla(v)}" for k, v in state.items()) + "]"


def check_windows(
    spec: Path,
    cfg: Path,
    windows: list[Window],
    actions: dict[str, list[str]],
    jar: Path,
) -> dict[str, tuple[int, int]]:
    """Return {action: (passed, total)} for the windows whose action is in ``actions``.

    ``actions`` maps each action name to its parameter names in the spec's order (taken from
    the window's params by name)."""
    module = spec.stem
    ws = [w for w in windows if w.action in actions]
    variables = list(ws[0].pre)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / spec.name).write_text(spec.read_text())
        rows = ",\n  ".join(
            f'[act |-> "{w.action}", args |-> {to_tla([w.params[p] for p in actions[w.action]])}, '
            f"pre |-> {_record(w.pre)}, post |-> {_record(w.post)}]"
            for w in ws
        )
        arms = "\n".join(
            f'    \\/ W[k].act = "{a}" /\\ {a}'
            + ("(" + ", ".join(f"W[k].args[{i + 1}]" for i in range(len(ps))) + ")" if ps else "")
            for a, ps in actions.items()
        )
        text = (
            f"---- MODULE WinCheck ----\nEXTENDS {module}, TLC, Naturals, Sequences\n"
            f"VARIABLES wk, wok\nW == <<\n  {rows}\n>>\n"
            "WInit == /\\ wk \\in 1..Len(W) /\\ wok = FALSE\n"
            + "".join(f"         /\\ {v} = W[wk].pre.{v}\n" for v in variables)
            + "Take(k) ==\n" + arms + "\n"
            "WNext == /\\ ~wok /\\ wok' = TRUE /\\ wk' = wk /\\ Take(wk)\n"
            + "".join(f"         /\\ {v}' = W[wk].post.{v}\n" for v in variables)
            + "====\n"
        )
        (d / "WinCheck.tla").write_text(text)
        consts = re.search(r"CONSTANTS?(.*?)(?=^\s*(SPECIFICATION|INIT|NEXT)|\Z)", cfg.read_text(), re.S | re.M)
        (d / "WinCheck.cfg").write_text(
            (f"CONSTANTS{consts.group(1)}\n" if consts else "") + "INIT WInit\nNEXT WNext\n"
        )
        proc = subprocess.run(
            ["java", "-XX:+UseParallelGC", "-cp", str(jar), "tlc2.TLC", "-workers", "1", "-deadlock",
             "-dump", str(d / "states"), "-config", "WinCheck.cfg", "WinCheck.tla"],
            cwd=d, capture_output=True, text=True, timeout=600,
        )
        if "Model checking completed" not in proc.stdout:
            raise RuntimeError(proc.stdout[-3000:])
        dump = (d / "states.dump").read_text()
        reached = set()
        for block in re.split(r"^State \d+:\s*$", dump, flags=re.M):
            if re.search(r"^/\\ wok = TRUE\s*$", block, re.M):
                m = re.search(r"^/\\ wk = (\d+)\s*$", block, re.M)
                if m:
                    reached.add(int(m.group(1)))
    total: Counter = Counter(w.action for w in ws)
    passed: Counter = Counter(w.action for i, w in enumerate(ws, 1) if i in reached)
    return {a: (passed[a], total[a]) for a in actions if total[a]}


def check_invariant(spec: Path, cfg: Path, name: str, definition: str, kind: str, jar: Path) -> tuple[bool, str]:
    """Check one invariants.yaml template (its tla_example, over the spec's own variables) with
    TLC: safety as INVARIANT, liveness as PROPERTY (under the spec's fairness), deadlock off.
    Returns (holds, TLC's last lines)."""
    module = spec.stem
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / spec.name).write_text(spec.read_text())
        (d / "InvCheck.tla").write_text(
            f"---- MODULE InvCheck ----\nEXTENDS {module}, Naturals, Sequences, FiniteSets, TLC\n"
            f"{definition.strip()}\n====\n"
        )
        keyword = "INVARIANT" if kind == "safety" else "PROPERTY"
        (d / "InvCheck.cfg").write_text(cfg.read_text() + f"\n{keyword} {name}\n")
        proc = subprocess.run(
            ["java", "-XX:+UseParallelGC", "-cp", str(jar), "tlc2.TLC", "-workers", "1", "-deadlock",
             "-config", "InvCheck.cfg", "InvCheck.tla"],
            cwd=d, capture_output=True, text=True, timeout=600,
        )
    tail = "\n".join(proc.stdout.strip().splitlines()[-6:])
    return ("Model checking completed. No error has been found." in proc.stdout, tail)
