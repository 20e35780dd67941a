"""Implementation branch coverage of a Python harness run (no coverage.py needed).

    python -m specula.bench.pycov --out FILE --root DIR -- SCRIPT [ARGS...]

runs SCRIPT as ``__main__`` with a line tracer on the files under DIR (harness and test files
excluded), then writes FILE (``specula.impl-coverage/1``): every branch point of those files —
each arm of an ``if``/``elif`` (THEN; ELSE, explicit or the implicit fall-through), each ``case``
of a ``match``, each ``except`` handler, each loop body — with whether the run reached it. An
implicit ELSE counts as reached when the ``if`` line ran more often than its first body line.
"""

from __future__ import annotations

import ast
import json
import os
import runpy
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

__all__ = ["branch_points", "BranchPoint", "merge", "main", "is_harness"]

SCHEMA = "specula.impl-coverage/1"


@dataclass(frozen=True)
class BranchPoint:
    file: str
    line: int  # the statement that branches
    arm: str  # "then" | "else" | "case N" | "except N" | "body"
    target: int  # first line of the arm (0 = implicit fall-through)


def is_harness(rel: str) -> bool:
    """A harness or test file (not the system's code): a name containing "harness" or starting
    with "test", or a path under a test folder."""
    name = rel.rsplit("/", 1)[-1].lower()
    return "harness" in name or name.startswith("test") or "/test" in rel.lower()


def branch_points(path: Path, rel: str) -> list[BranchPoint]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return []
    out: list[BranchPoint] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            out.append(BranchPoint(rel, node.lineno, "then", node.body[0].lineno))
            out.append(BranchPoint(rel, node.lineno, "else", node.orelse[0].lineno if node.orelse else 0))
        elif isinstance(node, (ast.While, ast.For, ast.AsyncFor)):
            out.append(BranchPoint(rel, node.lineno, "body", node.body[0].lineno))
        elif isinstance(node, ast.Try):
            for k, h in enumerate(node.handlers):
                out.append(BranchPoint(rel, node.lineno, f"except {k + 1}", h.body[0].lineno))
        elif sys.version_info >= (3, 10) and isinstance(node, ast.Match):
            for k, c in enumerate(node.cases):
                out.append(BranchPoint(rel, node.lineno, f"case {k + 1}", c.body[0].lineno))
    out.sort(key=lambda p: (p.file, p.line, p.arm))
    return out


def _report(root: Path, hits: dict[str, dict[int, int]]) -> dict:
    points: list[dict] = []
    missing: dict[str, list[int]] = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if is_harness(rel) or any(part.startswith(".") or part == "__pycache__" for part in path.parts):
            continue
        h = hits.get(str(path.resolve()), {})
        for p in branch_points(path, rel):
            if p.target:
                covered = h.get(p.target, 0) > 0
            else:  # implicit else: the test ran more often than the THEN arm's first line
                body = next((q.target for q in branch_points(path, rel) if q.line == p.line and q.arm == "then"), 0)
                covered = h.get(p.line, 0) > h.get(body, 0)
            points.append({"file": rel, "line": p.line, "arm": p.arm, "target": p.target, "covered": covered})
            if not covered:
                missing.setdefault(rel, []).append(p.line)
    return {"schema": SCHEMA, "root": str(root), "branches": len(points),
            "covered": sum(1 for p in points if p["covered"]), "points": points,
            "missing": {k: sorted(set(v)) for k, v in missing.items()}}


def merge(a: dict | None, b: dict | None) -> dict | None:
    """Two reports of the same code, a branch covered when either covered it."""
    if a is None or b is None:
        return a or b
    seen = {(p["file"], p["line"], p["arm"]): dict(p) for p in a.get("points", [])}
    for p in b.get("points", []):
        k = (p["file"], p["line"], p["arm"])
        if k in seen:
            seen[k]["covered"] = seen[k]["covered"] or p["covered"]
            if "count" in seen[k] and "count" in p:  # compiled harnesses count hits
                seen[k]["count"] += p["count"]
        else:
            seen[k] = dict(p)
    points = sorted(seen.values(), key=lambda p: (p["file"], p["line"], p["arm"]))
    missing: dict[str, list[int]] = {}
    for p in points:
        if not p["covered"]:
            missing.setdefault(p["file"], []).append(p["line"])
    return {**a, "branches": len(points), "covered": sum(1 for p in points if p["covered"]), "points": points,
            "missing": {k: sorted(set(v)) for k, v in missing.items()}}


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--" not in args:
        sys.stderr.write("usage: python -m specula.bench.pycov --out FILE --root DIR -- SCRIPT [ARGS...]\n")
        return 2
    i = args.index("--")
    opts, rest = args[:i], args[i + 1:]
    out = Path(opts[opts.index("--out") + 1])
    root = Path(opts[opts.index("--root") + 1]).resolve()
    prefix = str(root) + os.sep
    hits: dict[str, dict[int, int]] = {}
    wanted: dict[str, bool] = {}

    def local(frame, event, arg):  # noqa: ANN001
        if event == "line":
            h = hits.setdefault(frame.f_code.co_filename, {})
            h[frame.f_lineno] = h.get(frame.f_lineno, 0) + 1
        return local

    def tracer(frame, event, arg):  # noqa: ANN001
        fn = frame.f_code.co_filename
        ok = wanted.get(fn)
        if ok is None:
            real = os.path.realpath(fn)
            ok = wanted[fn] = real.startswith(prefix) and not is_harness(os.path.relpath(real, root))
        return local if ok else None

    sys.argv = rest
    sys.path.insert(0, str(Path(rest[0]).resolve().parent))
    threading.settrace(tracer)
    sys.settrace(tracer)
    code = 0
    try:
        runpy.run_path(rest[0], run_name="__main__")
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]
        resolved: dict[str, dict[int, int]] = {}
        for fn, h in hits.items():
            resolved.setdefault(os.path.realpath(fn), {}).update(h)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(_report(root, resolved), indent=1) + "\n", encoding="utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main())
