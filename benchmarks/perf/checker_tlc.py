"""Run real TLC (local differential checks only) and parse its verdict and state counts.

Used by tests/tla/specs (recording and the ``tlc`` differential test),
benchmarks/perf/examples_vs_tlc.py and checker_speed.py. Needs Java and SPECULA_TLA2TOOLS.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["TlcResult", "run_tlc", "parse_tlc_output", "tlc_jar"]

CMTLA = os.environ.get("SPECULA_CMTLA", "/work/ext/cmtla")


@dataclass
class TlcResult:
    verdict: str  # ok | invariant | deadlock | action-property | assumption | error | liveness | unknown
    distinct: int | None
    generated: int | None
    depth: int | None
    violated: str | None
    seconds: float
    output: str
    trace_len: int | None = None  # states in the error trace (TLC's are shortest too)
    rss_mb: float | None = None  # the JVM's peak resident memory (where /usr/bin/time exists)
    cpu: float | None = None  # the JVM's user + system CPU seconds (where /usr/bin/time exists)

    def to_dict(self) -> dict:
        return {
            "verdict": self.verdict,
            "distinct": self.distinct,
            "generated": self.generated,
            "depth": self.depth,
            "violated": self.violated,
            "trace_len": self.trace_len,
        }


def tlc_jar() -> str | None:
    p = os.environ.get("SPECULA_TLA2TOOLS")
    return p if p and Path(p).is_file() else None


_GEN = re.compile(r"([\d,]+) states generated, ([\d,]+) distinct states found")
_DEPTH = re.compile(r"depth of the complete state graph search is (\d+)")


def _int(s: str) -> int:
    return int(s.replace(",", ""))


def parse_tlc_output(out: str, seconds: float = 0.0) -> TlcResult:
    verdict, violated = "ok", None
    m = re.search(r"Error: Invariant (\S+) is violated", out)
    if m:
        verdict, violated = "invariant", m.group(1)
    elif "Error: Deadlock reached" in out:
        verdict = "deadlock"
    elif re.search(r"Error: Action property (\S+) is violated", out):
        verdict = "action-property"
        violated = re.search(r"Error: Action property (\S+) is violated", out).group(1)  # type: ignore[union-attr]
    elif re.search(r"Error: Assumption .* is false", out) or "Error: Assumption" in out:
        verdict = "assumption"
    elif re.search(r"Error: (The initial predicate|Initial predicate) .*", out) and "violated" not in out:
        verdict = "error"
    elif "Temporal properties were violated" in out or re.search(r"Error: Temporal", out):
        verdict = "liveness"
    elif re.search(r"Error: Property (\S+) is violated", out):
        verdict, violated = "invariant", re.search(r"Error: Property (\S+) is violated", out).group(1)  # type: ignore[union-attr]
    elif "Error:" in out or "Parsing or semantic analysis failed" in out:
        verdict = "error"
    elif "Model checking completed. No error has been found." not in out and "Finished in" not in out:
        verdict = "unknown"
    gens = _GEN.findall(out)
    gen = dist = None
    if gens:
        gen, dist = _int(gens[-1][0]), _int(gens[-1][1])
    d = _DEPTH.search(out)
    states = [int(n) for n in re.findall(r"^State (\d+):", out, re.M)]
    return TlcResult(
        verdict, dist, gen, int(d.group(1)) if d else None, violated, seconds, out, max(states) if states else None
    )


def run_tlc(tla: str | Path, cfg: str | Path | None = None, timeout: float = 600, extra: tuple[str, ...] = (),
            workers: int = 1, prefix: tuple[str, ...] = ()) -> TlcResult:
    """Run TLC with one worker (or ``workers``) on ``tla`` (cfg defaults to the same name);
    ``prefix`` goes before the command (``("taskset", "-c", "0")``: the JVM on one core)."""
    jar = tlc_jar()
    if jar is None:
        raise RuntimeError("SPECULA_TLA2TOOLS is not set")
    tla = Path(tla).resolve()
    cfg = Path(cfg).resolve() if cfg else tla.with_suffix(".cfg")
    meta = Path("/tmp/CHECKER/tlc-meta") / f"{tla.stem}-{os.getpid()}-{time.time_ns()}"
    meta.mkdir(parents=True, exist_ok=True)
    # TLAPS (proof-only definitions, imported by many Examples specs) is not a community module:
    # give TLC specula's text of it, alone in its own folder
    proofs = Path("/tmp/CHECKER/tlaps")
    proofs.mkdir(parents=True, exist_ok=True)
    (proofs / "TLAPS.tla").write_text((Path(__file__).resolve().parents[2] / "specula/tla/stdlib/TLAPS.tla").read_text())
    cmd = [
        *prefix, "java", "-XX:+UseParallelGC", f"-DTLA-Library={CMTLA}{os.pathsep}{proofs}", "-cp", jar, "tlc2.TLC",
        "-workers", str(workers), "-noGenerateSpecTE", "-metadir", str(meta), "-config", str(cfg), *extra, tla.name,
    ]
    timer = Path("/usr/bin/time")
    if timer.is_file():  # the JVM's peak RSS and CPU time, printed on stderr after TLC's own output
        cmd = [str(timer), "-f", "@@RSS %M\n@@CPU %U %S", *cmd]
    t = time.monotonic()
    proc = subprocess.run(cmd, cwd=tla.parent, capture_output=True, text=True, timeout=timeout)
    secs = time.monotonic() - t
    r = parse_tlc_output(proc.stdout + proc.stderr, secs)
    m = re.search(r"^@@RSS (\d+)$", proc.stderr, re.M)
    r.rss_mb = int(m.group(1)) / 1024 if m else None
    c = re.search(r"^@@CPU ([\d.]+) ([\d.]+)$", proc.stderr, re.M)
    r.cpu = float(c.group(1)) + float(c.group(2)) if c else None
    return r
