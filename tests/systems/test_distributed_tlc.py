"""Real-TLC cross-checks of the distributed systems (need SPECULA_TLA2TOOLS; marked tlc).

Per-window verdicts: the traces are fully observed (every spec variable is a trace field), so
TLC decides each window exactly (tests/systems/_distributed_windows.py); its pass counts per
action must equal specula's, for the reference spec and for every mutant. The reference specs
model-check clean with TLC (raft's state space is not exhausted: TLC runs for a bounded time
and must report no error), and every invariants.yaml template holds under TLC for the specs
TLC exhausts (zab_election, locksvc).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
import yaml

from specula.cli import main

SYSTEMS_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"

NODE = "node:val"
SCHEMAS: dict[str, dict[str, str]] = {
    "zab_election": {**{v: NODE for v in ("state", "electing", "logicalclock", "proposedLeader",
                                         "proposedZxid", "zxid")},
                     "recvset": "node:set", "outofelection": "node:set", "msgs": "set"},
    "raft": {**{v: NODE for v in ("currentTerm", "state", "votedFor", "lead", "log",
                                  "commitIndex")},
             "votesGranted": "node:set", "votesRejected": "node:set",
             "matchIndex": "node:node:val", "nextIndex": "node:node:val", "msgs": "set"},
    "locksvc": {"queue": "seq", "pc": "val", "network": "set"},
}
CALLS: dict[str, dict[str, str]] = {
    "zab_election": {"Notification": "Notification($A)",
                     "HandleNotification": "HandleNotification($A, $M)",
                     "BecomeLeader": "BecomeLeader($A)"},
    "raft": {"ElectionTimeout": "ElectionTimeout($A)",
             "HandleVoteRequest": "HandleVoteRequest($A, $M)",
             "ClientProposal": "ClientProposal($A)",
             "HandleAppendEntries": "HandleAppendEntries($A, $M)",
             "HandleHeartbeat": "HandleHeartbeat($A, $M)"},
    "locksvc": {"ClientLockRequest": "ClientLockRequest($A)",
                "ServerGrantLock": "ServerGrantLock($M)",
                "ClientCriticalSection": "ClientCriticalSection($A, $M)",
                "ClientUnlockRequest": "ClientUnlockRequest($A)"},
}


def task(name: str) -> dict:
    return yaml.safe_load((SYSTEMS_DIR / name / "task.yaml").read_text())


def specula_rows(name: str, spec: str, capsys) -> dict[str, tuple[int, int]]:
    t = task(name)
    d = SYSTEMS_DIR / name
    main(["validate", str(d / spec), "-c", str(d / t["reference"]["cfg"]), "-t",
          str(d / "traces"), "-m", str(d / t["mapping"]), "--actions",
          ",".join(t["wv"]["target_actions"]), "--json"])
    data = json.loads(capsys.readouterr().out)
    return {r["action"]: (r["passed"], r["total"]) for r in data["actions"]}


SPECS = [(n, s) for n in SCHEMAS
         for s in [task(n)["reference"]["spec"]] + [m["spec"] for m in task(n)["mutants"]]]


@pytest.mark.tlc
@pytest.mark.slow
@pytest.mark.parametrize("name,spec", SPECS, ids=[f"{n}-{Path(s).stem}" for n, s in SPECS])
def test_tlc_window_verdicts_agree_with_specula(name, spec, tlc_jar, capsys):
    import _distributed_windows as dw

    t = task(name)
    d = SYSTEMS_DIR / name
    targets = tuple(t["wv"]["target_actions"])
    windows = dw.read_windows(sorted((d / "traces").glob("*.ndjson")), targets)
    by_tlc = {}
    for action in targets:
        ws = [w for w in windows if w.action == action]
        verdicts = dw.check_windows(tlc_jar, d / spec, d / t["reference"]["cfg"], ws,
                                    SCHEMAS[name], CALLS[name][action])
        by_tlc[action] = (sum(verdicts), len(verdicts))
    assert by_tlc == specula_rows(name, spec, capsys)


def _tlc(jar: Path, spec: Path, cfg: Path, cwd: Path, timeout: float) -> tuple[str, bool]:
    cmd = ["java", "-XX:+UseParallelGC", "-cp", str(jar), "tlc2.TLC", "-workers", "1",
           "-deadlock", "-config", cfg.name, spec.name]
    try:
        out = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        return out.stdout, True
    except subprocess.TimeoutExpired as exc:
        text = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        return text, False


@pytest.mark.tlc
@pytest.mark.parametrize("name", list(SCHEMAS))
def test_reference_model_checks_clean_under_tlc(name, tlc_jar, tmp_path):
    t = task(name)
    d = SYSTEMS_DIR / name
    spec, cfg = d / t["reference"]["spec"], d / t["reference"]["cfg"]
    (tmp_path / spec.name).write_text(spec.read_text())
    (tmp_path / cfg.name).write_text(cfg.read_text())
    out, finished = _tlc(tlc_jar, tmp_path / spec.name, tmp_path / cfg.name, tmp_path,
                         timeout=240 if name != "raft" else 60)
    assert "Error" not in out, out[-3000:]
    if name != "raft":
        assert finished and "Model checking completed. No error has been found." in out
    else:
        assert "states generated" in out or "Computed" in out or not finished


@pytest.mark.tlc
@pytest.mark.slow
@pytest.mark.parametrize("name", ["zab_election", "locksvc"])
def test_invariant_templates_hold_under_tlc(name, tlc_jar):
    import tlcwin

    t = task(name)
    d = SYSTEMS_DIR / name
    for inv in yaml.safe_load((d / t["invariants"]).read_text())["invariants"]:
        ok, tail = tlcwin.check_invariant(d / t["reference"]["spec"], d / t["reference"]["cfg"],
                                          inv["name"], inv["tla_example"], inv["type"], tlc_jar)
        assert ok, (inv["name"], tail)
