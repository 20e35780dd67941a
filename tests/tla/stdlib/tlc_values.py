"""Evaluation cases of the community modules (cases/*.txt) and how TLC evaluates them.

A case file starts with ``# EXTENDS M1, M2, ...`` (the modules the cases use) and has one case a
line, ``expression ==> value``: the value is what TLC printed for the expression (TLA+ syntax),
recorded by ``record_tlc.py``; ``!! message`` records that TLC could not evaluate it. A case
``expression =def=> value`` has a value worked out by hand from the community module's
definition, where the local TLC cannot evaluate it (the reason in a ``#`` line above it).

TLC runs with -fp 0 (its first fingerprint polynomial, which TLCFP and DotDiGraph use in specula).
TLC needs the community modules: SPECULA_COMMUNITY_MODULES is a ':'-separated list of jars (a
CommunityModules jar and its dependencies, added to TLC's class path) and folders (the modules'
TLA+ text, passed as -DTLA-Library); the jars come before tla2tools.jar on the class path, so a
jar holding a newer build of TLC's TLCExt class (with its TLCExt.tla in a folder of the list)
replaces the one of tla2tools.jar. Keep such a jar out of the folder of tla2tools.jar: that
jar's manifest puts a CommunityModules.jar lying beside it on the class path.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

CASES = Path(__file__).resolve().parent / "cases"
PENDING = "?"


@dataclass
class Case:
    expr: str
    expected: str  # TLC's value as TLA+ text, "!! message" when TLC failed, "?" when not recorded
    line: int
    by_hand: bool = False  # =def=>: worked out from the definition (the local TLC cannot)
    comment: bool = False  # a "#" line kept in place (expected holds its text)


@dataclass
class CaseFile:
    module: str
    extends: list[str]
    all_lines: list[Case]
    path: Path

    @property
    def cases(self) -> list[Case]:
        return [c for c in self.all_lines if not c.comment]

    @property
    def tlc_cases(self) -> list[Case]:
        return [c for c in self.cases if not c.by_hand]


def case_files() -> list[CaseFile]:
    return [read_cases(p) for p in sorted(CASES.glob("*.txt"))]


def read_cases(path: Path) -> CaseFile:
    lines = path.read_text(encoding="utf-8").splitlines()
    m = re.match(r"#\s*EXTENDS\s+(.*)$", lines[0])
    if m is None:
        raise ValueError(f"{path}:1: the first line must be '# EXTENDS M1, M2, ...'")
    extends = [x.strip() for x in m.group(1).split(",") if x.strip()]
    cases = []
    for i, ln in enumerate(lines[1:], 2):
        if not ln.strip():
            continue
        if ln.startswith("#"):
            cases.append(Case("", ln, i, comment=True))
            continue
        by_hand = " =def=> " in ln
        expr, sep, expected = ln.partition(" =def=> " if by_hand else " ==> ")
        if not sep:
            raise ValueError(f"{path}:{i}: expected 'expression ==> value'")
        cases.append(Case(expr.strip(), expected.strip(), i, by_hand))
    return CaseFile(path.stem, extends, cases, path)


def write_cases(cf: CaseFile) -> None:
    out = [f"# EXTENDS {', '.join(cf.extends)}"]
    out += [c.expected if c.comment else f"{c.expr} {'=def=>' if c.by_hand else '==>'} {c.expected}"
            for c in cf.all_lines]
    cf.path.write_text("\n".join(out) + "\n", encoding="utf-8")


def community_classpath() -> tuple[list[str], list[str]]:
    """(jars for -cp, folders for -DTLA-Library) from SPECULA_COMMUNITY_MODULES."""
    jars, dirs = [], []
    for part in os.environ.get("SPECULA_COMMUNITY_MODULES", "").split(":"):
        if part and Path(part).is_dir():
            dirs.append(part)
        elif part:
            jars.append(part)
    return jars, dirs


def tlc_values(jar: str, extends: list[str], exprs: list[str], workdir: Path) -> list[str]:
    """TLC's printed value of every expression ("!! message" where TLC fails), evaluated in a
    module EXTENDS ``extends`` with ``workdir`` as the working directory (files are relative)."""
    results: dict[int, str] = {}
    todo = list(range(len(exprs)))
    while todo:
        got, failed = _run_once(jar, extends, [(i, exprs[i]) for i in todo], workdir)
        results.update(got)
        if failed is None:
            for i in todo:
                results.setdefault(i, "!! TLC printed nothing for this case")
            break
        idx, msg = failed
        if "Parsing or semantic analysis failed" in msg:  # no case can be evaluated
            for i in todo:
                results[i] = "!! " + msg
            break
        results[idx] = "!! " + msg
        todo = [i for i in todo if i not in results]
    return [results[i] for i in range(len(exprs))]


def _run_once(jar: str, extends: list[str], cases: list[tuple[int, str]],
              workdir: Path) -> tuple[dict[int, str], tuple[int, str] | None]:
    jars, dirs = community_classpath()
    name = "CommunityCases"
    body = [f"---- MODULE {name} ----", f"EXTENDS {', '.join(dict.fromkeys(extends + ['TLC', 'Sequences']))}"]
    for i, expr in cases:
        body.append(f'ASSUME PrintT("@@{i} " \\o ToString({expr}))')
    body += ["VARIABLE cases_x", "Init == cases_x = 0", "Next == UNCHANGED cases_x", "===="]
    (workdir / f"{name}.tla").write_text("\n".join(body) + "\n", encoding="utf-8")
    (workdir / f"{name}.cfg").write_text("INIT Init\nNEXT Next\n", encoding="utf-8")
    cmd = ["java", "-XX:+UseParallelGC"]
    if dirs:
        cmd.append("-DTLA-Library=" + ":".join(dirs))
    with tempfile.TemporaryDirectory() as meta:
        cmd += ["-cp", ":".join([*jars, jar]), "tlc2.TLC", "-workers", "1", "-fp", "0", "-metadir", meta,
                "-config", f"{name}.cfg", f"{name}.tla"]
        out = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True, timeout=600)
    text = out.stdout + out.stderr
    got: dict[int, str] = {}
    for ln in text.splitlines():
        ln = ln.strip()
        if ln.startswith('"@@'):
            s = json.loads(ln)
            k, _, v = s[2:].partition(" ")
            got[int(k)] = v
    failed = None
    if "Error:" in text and len(got) < len(cases):
        pending = [i for i, _ in cases if i not in got]
        lines = [ln.strip() for ln in text.splitlines()]
        msg = next((ln for ln in lines if ln.startswith("Error:")), "error")
        if "Parsing or semantic analysis failed" in msg:  # name SANY's first complaint
            msg += " " + next((ln for ln in lines if ln.startswith(("Could not", "Unknown", "Encountered",
                                                                    "Cannot find", "Multiply"))), "")
        for j, ln in enumerate(lines):
            if ln.startswith(("but it produced the following error:", "The error occurred when")) and j + 1 < len(lines):
                msg = lines[j + 1]
                break
        failed = (pending[0], msg[:300])
    return got, failed
