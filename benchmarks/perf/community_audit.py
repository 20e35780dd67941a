"""Audit specula's standard library against the TLA+ CommunityModules, operator by operator.

Lists every operator each upstream module defines (top-level, not LOCAL: what ``EXTENDS M``
exports, with its arity) and whether specula's text of the module defines it with the same arity
(directly or through a module it EXTENDS), plus whether it is native in specula
(builtins.py, natives_community.py). The upstream text comes from a CommunityModules checkout (or bare
mirror: read with ``git show``) and, for TLCExt, from a tlaplus/tlaplus one. The ``*_proofs``
modules (TLAPS proofs of the ``*Theorems`` modules, which nothing EXTENDS) are left out.

    python benchmarks/perf/community_audit.py [--community /work/.mirror/tlaplus+CommunityModules/repo]
        [--tlaplus /work/.mirror/tlaplus+tlaplus/repo] [--verbose] [--write tests/tla/stdlib/upstream_operators.txt]

``--write`` records the upstream list (``Module!Operator/arity``, `` java`` where TLC has Java
code for it) for tests/tla/stdlib/test_community_audit.py, which checks specula against it
without the upstream repositories.

Exit status 1 when an operator is missing (or has another arity).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from specula.tla import ast
from specula.tla.modules import STDLIB_DIR
from specula.tla.builtins import native_for
from specula.tla.syntax import parse_module

TLCEXT = "tlatools/org.lamport.tlatools/src/tla2sany/StandardModules/TLCExt.tla"
TLCEXT_JAVA = "tlatools/org.lamport.tlatools/src/tlc2/module/TLCExt.java"
# TLC's Java overrides name the operator they replace in an annotation; a @TLAPlusOperator method
# replaces a definition of as many parameters as it takes (TLC leaves e.g. Combinatorics'
# function factorial[n] to its TLA+ definition: the method takes one argument), an @Evaluation
# method any definition
JAVA_OVERRIDE = re.compile(r'@(TLAPlusOperator|Evaluation)\(\s*(?:identifier|definition)\s*=\s*"([^"]+)"\s*,'
                           r'\s*module\s*=\s*"([^"]+)"[^)]*\)\s*public[^(]*\(([^)]*)\)')


@dataclass(frozen=True)
class Op:
    name: str
    arity: int


def exported(module: ast.Module) -> dict[str, Op]:
    """The operators a module defines itself and exports (not LOCAL), by name."""
    out: dict[str, Op] = {}
    for u in module.units:
        if isinstance(u, ast.OpDef) and not u.local:
            out[u.name] = Op(u.name, len(u.params))
        elif isinstance(u, ast.FuncDef) and not u.local:
            out[u.name] = Op(u.name, 0)
        elif isinstance(u, ast.InstanceDef) and u.name is not None and not u.local:
            out[u.name] = Op(u.name, len(u.params))
    return out


class Source:
    """Files of a checkout folder or of a bare git mirror (its HEAD)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bare = (root / "HEAD").is_file() and (root / "objects").is_dir()

    def names(self, folder: str, ext: str = ".tla") -> list[str]:
        if self.bare:
            out = subprocess.run(["git", "-C", str(self.root), "ls-tree", "--name-only", f"HEAD:{folder}"],
                                 capture_output=True, text=True, check=True).stdout
            return sorted(n for n in out.split() if n.endswith(ext))
        return sorted(p.name for p in (self.root / folder).glob("*" + ext))

    def read(self, path: str) -> str:
        if self.bare:
            return subprocess.run(["git", "-C", str(self.root), "show", f"HEAD:{path}"],
                                  capture_output=True, text=True, check=True).stdout
        return (self.root / path).read_text(encoding="utf-8")

    def commit(self) -> str:
        if not self.bare and not (self.root / ".git").exists():
            return "(folder)"
        return subprocess.run(["git", "-C", str(self.root), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip() or "(folder)"


def specula_ops(name: str, seen: set[str] | None = None) -> dict[str, Op] | None:
    """What ``EXTENDS name`` gives with specula's library (None: no such module)."""
    path = STDLIB_DIR / f"{name}.tla"
    if not path.is_file():
        return None
    seen = seen if seen is not None else set()
    seen.add(name)
    module = parse_module(path.read_text(encoding="utf-8"), str(path))
    ops: dict[str, Op] = {}
    for ext in module.extends:
        if ext not in seen:
            ops.update(specula_ops(ext, seen) or {})
    ops.update(exported(module))
    return ops


@dataclass
class Upstream:
    module: str
    op: Op
    java: bool


@dataclass
class Row:
    module: str
    upstream: int
    present: int
    native: int
    missing: list[str]
    tlc_java: int  # operators TLC overrides in Java
    not_native: list[str]  # ... that specula evaluates from its TLA+ text


def java_overrides(community: Source, tlaplus: Source | None) -> dict[tuple[str, str], int | None]:
    """(module, operator) of every Java override of TLC's (CommunityModules' and TLCExt's), with
    the number of arguments its method takes (None: an @Evaluation, for any arity)."""
    folder = "modules/tlc2/overrides"
    java = [community.read(f"{folder}/{n}") for n in community.names(folder, ".java")]
    if tlaplus is not None:
        java.append(tlaplus.read(TLCEXT_JAVA))
    out: dict[tuple[str, str], int | None] = {}
    for text in java:
        for m in JAVA_OVERRIDE.finditer(text):
            params = m.group(4).strip()
            out[(m.group(3), m.group(2))] = None if m.group(1) == "Evaluation" else (
                len(params.split(",")) if params else 0)
    return out


def audit(community: Source, tlaplus: Source | None, verbose: bool,
          listing: list[Upstream] | None = None) -> list[Row]:
    # the *_proofs modules hold the TLAPS proofs of the *Theorems modules: nothing EXTENDS them
    texts = {n[:-4]: community.read(f"modules/{n}") for n in community.names("modules")
             if not n.endswith("_proofs.tla")}
    if tlaplus is not None:
        texts["TLCExt"] = tlaplus.read(TLCEXT)
    overridden = java_overrides(community, tlaplus)
    rows = []
    for name in sorted(texts, key=str.lower):
        up = exported(parse_module(texts[name], f"{name}.tla"))
        ours = specula_ops(name)
        missing, not_native = [], []
        native = tlc_java = 0
        for op in up.values():
            mine = None if ours is None else ours.get(op.name)
            is_native = mine is not None and native_for(name, op.name) is not None
            native += is_native
            if listing is not None:
                listing.append(Upstream(name, op, overridden.get((name, op.name), -1) in (None, op.arity)))
            if (name, op.name) in overridden and overridden[(name, op.name)] in (None, op.arity):
                tlc_java += 1
                if not is_native:
                    not_native.append(op.name)
            state = "missing" if mine is None else ("arity %d" % mine.arity if mine.arity != op.arity
                                                    else "native" if is_native else "TLA+")
            if mine is None or mine.arity != op.arity:
                missing.append(f"{op.name}/{op.arity}")
            if verbose:
                java = ", Java in TLC" if overridden.get((name, op.name), -1) in (None, op.arity) else ""
                print(f"  {name}!{op.name}/{op.arity}: {state}{java}")
        if ours is None:
            missing.insert(0, "(the module)")
        rows.append(Row(name, len(up), len(up) - len(missing), native, missing, tlc_java, not_native))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--community", type=Path, default=Path("/work/.mirror/tlaplus+CommunityModules/repo"),
                    help="a CommunityModules checkout or bare mirror (its modules/ folder is read)")
    ap.add_argument("--tlaplus", type=Path, default=Path("/work/.mirror/tlaplus+tlaplus/repo"),
                    help="a tlaplus/tlaplus checkout or bare mirror (for TLCExt.tla); '' to skip")
    ap.add_argument("--verbose", action="store_true", help="one line per operator")
    ap.add_argument("--write", type=Path, help="record the upstream operators in this file")
    args = ap.parse_args()
    community = Source(args.community)
    tlaplus = Source(args.tlaplus) if str(args.tlaplus) not in ("", ".") else None
    listing: list[Upstream] = []
    rows = audit(community, tlaplus, args.verbose, listing)
    if args.write:
        head = (f"# every operator the CommunityModules ({community.commit()}) and TLCExt "
                f"(tlaplus {tlaplus.commit() if tlaplus else '-'}) export: Module!Operator/arity, "
                "'java' where TLC has Java code for it\n# written by benchmarks/perf/community_audit.py --write\n")
        args.write.write_text(head + "".join(f"{u.module}!{u.op.name}/{u.op.arity}{' java' if u.java else ''}\n"
                                             for u in listing), encoding="utf-8")
    print(f"CommunityModules {community.commit()}" + (f", tlaplus {tlaplus.commit()}" if tlaplus else ""))
    print("| module | upstream operators | in specula | missing | Java in TLC | native in specula | "
          "Java in TLC, TLA+ in specula |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r.module} | {r.upstream} | {r.present} | {', '.join(r.missing) or '-'} | {r.tlc_java} | "
              f"{r.native} | {', '.join(r.not_native) or '-'} |")
    total = sum(r.upstream for r in rows)
    present = sum(r.present for r in rows)
    native = sum(r.native for r in rows)
    java = sum(r.tlc_java for r in rows)
    java_native = java - sum(len(r.not_native) for r in rows)
    print(f"{len(rows)} modules, {total} operators, {present} in specula ({native} native), "
          f"{total - present} missing; TLC has Java for {java} of them, specula is native for {java_native}")
    return 0 if present == total else 1


if __name__ == "__main__":
    sys.exit(main())
