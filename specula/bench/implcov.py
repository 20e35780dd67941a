"""Implementation branch coverage of compiled harnesses (C through gcov, Java through a source
instrumenter), in the ``specula.impl-coverage/1`` shape of :mod:`specula.bench.pycov`.

A harness's ``build`` steps are rewritten for a coverage build in its own scratch directory:

- **C** (a step whose program is gcc, cc, clang, g++ or c++): ``--coverage`` added, optimisation
  lowered to ``-O0`` (so branches stay where the source has them). After the run, ``gcov -b``
  reads the counters (``.gcda`` beside the objects) of the system's source files: each branch
  gcov reports on a line (taken/fall-through of an ``if`` or loop test, each ``switch`` target,
  the operands of ``&&``/``||``) is a branch point, reached when its count is not zero.
- **Java** (a ``javac`` step): the system's ``.java`` files are rewritten by
  ``tools/emitters/java/SpeculaCovInstrument.java`` (javac's own parser; a counter at the start of
  every ``if`` arm, with an ELSE added where there is none, loop body, ``case`` and ``catch``; same
  line numbers) and compiled instead of the originals, with the counters' class. The run appends
  the counts to the file named by ``SPECULA_IMPL_COUNTS``.

The system's files are the sources the build step compiles that lie in the system directory,
harness and test files excluded (as for Python: a name containing "harness" or starting with
"test"). Emitters (``tools/emitters``) are outside the system directory and never counted.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from specula.bench.pycov import SCHEMA, is_harness
from specula.errors import HarnessError

__all__ = ["CoverageBuild", "coverage_build", "COUNTS_ENV"]

COUNTS_ENV = "SPECULA_IMPL_COUNTS"
_C_COMPILERS = ("gcc", "cc", "clang", "g++", "c++")
_C_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hpp")
_OPT = re.compile(r"^-O([0-3sgz]|fast)?$")


@dataclass
class CoverageBuild:
    """A harness's build rewritten for implementation coverage: run ``build`` (then the harness,
    with ``env`` added), then :meth:`report` reads what the run reached."""

    language: str  # "c" | "java"
    system: Path
    build_dir: Path
    build: list[list[str]]
    env: dict[str, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)  # the system's files, relative to ``system``

    def prepare(self) -> None:
        """Remove the counters of an earlier run (gcov's .gcda accumulate, the counts file appends)."""
        if self.language == "c":
            for f in self.build_dir.rglob("*.gcda"):
                f.unlink()
        elif self.language == "java":
            Path(self.env[COUNTS_ENV]).unlink(missing_ok=True)

    def report(self) -> dict[str, Any]:
        points = self._gcov_points() if self.language == "c" else self._java_points()
        return _shape(self.system, points)

    # -- C
    def _gcov_points(self) -> list[dict[str, Any]]:
        gcov = shutil.which("gcov")
        if gcov is None:
            raise HarnessError("implementation coverage of a C harness needs gcov (from gcc) on PATH")
        wanted = {Path(s).as_posix() for s in self.sources}
        points: list[dict[str, Any]] = []
        seen: set[tuple[str, int, int]] = set()
        for gcda in sorted(self.build_dir.rglob("*.gcda")):
            proc = subprocess.run([gcov, "-b", "-c", "--json-format", "--stdout", str(gcda)], cwd=self.system,
                                  capture_output=True, text=True, timeout=120)
            if proc.returncode != 0:
                raise HarnessError(f"gcov failed on {gcda.name}: {proc.stderr.strip()[-400:]}")
            for raw in proc.stdout.splitlines():
                if not raw.startswith("{"):
                    continue
                data = json.loads(raw)
                cwd = Path(data.get("current_working_directory") or self.system)
                for f in data.get("files", []):
                    rel = _relative(cwd / f["file"], self.system)
                    if rel is None or rel not in wanted:
                        continue
                    for line in f.get("lines", []):
                        for k, br in enumerate(line.get("branches") or [], 1):
                            key = (rel, int(line["line_number"]), k)
                            if key in seen:  # a header's inline code reported by several units
                                continue
                            seen.add(key)
                            arm = "throw" if br.get("throw") else f"branch {k}"
                            points.append({"file": rel, "line": key[1], "arm": arm, "target": 0,
                                           "count": int(br.get("count", 0))})
        return points

    # -- Java
    def _java_points(self) -> list[dict[str, Any]]:
        table = self.build_dir / "points.tsv"
        counts: dict[int, int] = {}
        counts_file = Path(self.env[COUNTS_ENV])
        if counts_file.is_file():
            for raw in counts_file.read_text(encoding="utf-8").splitlines():
                parts = raw.split()
                if len(parts) == 2 and parts[0].isdigit() and parts[1].isdigit():
                    counts[int(parts[0])] = counts.get(int(parts[0]), 0) + int(parts[1])
        points: list[dict[str, Any]] = []
        for raw in table.read_text(encoding="utf-8").splitlines():
            ident, file, line, arm, target = raw.split("\t")
            points.append({"file": Path(file).as_posix(), "line": int(line), "arm": arm, "target": int(target),
                           "count": counts.get(int(ident), 0)})
        return points


def _relative(path: Path, root: Path) -> str | None:
    try:
        return Path(os.path.normpath(path)).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def _system_sources(argv: list[str], system: Path, suffixes: tuple[str, ...]) -> list[str]:
    out = []
    for arg in argv[1:]:
        if arg.startswith("-") or not arg.endswith(suffixes):
            continue
        rel = _relative(system / arg, system)
        if rel is not None and not is_harness(rel):
            out.append(rel)
    return out


def _headers(system: Path) -> list[str]:
    """The system's own headers (inline functions in them are counted where gcov reports them)."""
    return [p.relative_to(system).as_posix() for p in sorted(system.rglob("*.h"))
            if not is_harness(p.relative_to(system).as_posix())]


def coverage_build(build: list[list[str]], system: Path, build_dir: Path,
                   emitters: Path) -> CoverageBuild | None:
    """The coverage build of a harness whose (expanded) build steps are ``build``, or None when
    no step compiles C or Java (the harness is then run as it is)."""
    system = system.resolve()
    steps: list[list[str]] = []
    sources: list[str] = []
    kind = ""
    for argv in build:
        prog = Path(argv[0]).name if argv else ""
        if prog in _C_COMPILERS:
            kind = "c"
            sources += _system_sources(argv, system, _C_SUFFIXES)
            steps.append([argv[0], "--coverage", *[a for a in argv[1:] if not _OPT.match(a)], "-O0"])
        elif prog == "javac":
            kind = "java"
            mine = _system_sources(argv, system, (".java",))
            sources += mine
            src_dir = build_dir / "instrumented"
            steps.append(["java", str(emitters / "java" / "SpeculaCovInstrument.java"), "--out", str(src_dir),
                          "--points", str(build_dir / "points.tsv"), *mine])
            rewritten = []
            for a in argv:
                rel = None if a.startswith("-") or not a.endswith(".java") else _relative(system / a, system)
                rewritten.append(str(src_dir / rel) if rel is not None and rel in mine else a)
            steps.append([*rewritten, str(src_dir / "Cov.java")])
        else:
            steps.append(list(argv))
    if not kind:
        return None
    if kind == "c":
        sources += [h for h in _headers(system) if h not in sources]
    env = {COUNTS_ENV: str(build_dir / "counts.txt")} if kind == "java" else {}
    return CoverageBuild(kind, system, build_dir, steps, env, sources)


def _shape(system: Path, points: list[dict[str, Any]]) -> dict[str, Any]:
    points = sorted(points, key=lambda p: (p["file"], p["line"], p["arm"]))
    for p in points:
        p["covered"] = p["count"] > 0
    missing: dict[str, list[int]] = {}
    for p in points:
        if not p["covered"]:
            missing.setdefault(p["file"], []).append(p["line"])
    return {"schema": SCHEMA, "root": str(system), "branches": len(points),
            "covered": sum(1 for p in points if p["covered"]), "points": points,
            "missing": {k: sorted(set(v)) for k, v in missing.items()}}
