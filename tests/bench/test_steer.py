"""Coverage steering of the bundled harnesses and the Python implementation branch recorder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from specula.bench.pycov import branch_points, merge
from specula.bench.steer import until_coverage

SYSTEMS = Path(__file__).resolve().parents[2] / "benchmarks" / "systems"


def _tiny_system(root: Path) -> Path:
    (root / "sysmod.py").write_text(
        "def f(x):\n"             # 1
        "    if x > 0:\n"         # 2
        "        y = 1\n"         # 3
        "    else:\n"             # 4
        "        y = 2\n"         # 5
        "    if x > 5:\n"         # 6
        "        y += 10\n"       # 7
        "    return y\n")         # 8
    (root / "harness.py").write_text("import sys\nfrom sysmod import f\nfor a in sys.argv[1:]:\n    f(int(a))\n")
    return root


def test_pycov_records_reached_arms(tmp_path):
    """f(1) takes the first THEN and skips the second IF (implicit ELSE); f(7) would take both THENs."""
    root = _tiny_system(tmp_path)
    out = tmp_path / "cov.json"
    rc = subprocess.run([sys.executable, "-m", "specula.bench.pycov", "--out", str(out), "--root", str(root), "--",
                         "harness.py", "1"], cwd=root, capture_output=True, text=True)
    assert rc.returncode == 0, rc.stderr
    d = json.loads(out.read_text())
    got = {(p["line"], p["arm"]): p["covered"] for p in d["points"]}
    assert got == {(2, "then"): True, (2, "else"): False, (6, "then"): False, (6, "else"): True}
    assert d["branches"] == 4 and d["covered"] == 2 and d["missing"] == {"sysmod.py": [2, 6]}
    subprocess.run([sys.executable, "-m", "specula.bench.pycov", "--out", str(tmp_path / "c2.json"), "--root",
                    str(root), "--", "harness.py", "-1", "7"], cwd=root, check=True)
    both = merge(d, json.loads((tmp_path / "c2.json").read_text()))
    assert both["covered"] == 4 and both["missing"] == {}
    assert [p.arm for p in branch_points(root / "harness.py", "harness.py")] == ["body"]


def test_until_coverage_on_the_lock_service(tmp_path):
    """Rounds of one run each; the reference spec's four actions and the two arms of the server's
    grant (queue empty or not) are all reached, so the loop stops once nothing new comes."""
    res = until_coverage("locksvc", tmp_path / "out", seed=3, batch=1, patience=2, max_rounds=5,
                         systems_dir=SYSTEMS)
    assert res.stopped in ("no new coverage in 2 rounds", "everything covered")
    assert len(res.files) == len(res.rounds) and all(f.is_file() for f in res.files)
    assert {"ClientLockRequest", "ServerGrantLock", "ClientCriticalSection", "ClientUnlockRequest"} <= res.spec_covered
    assert res.spec_items >= 4 and res.rounds[0].gain > 0
    assert [r.options for r in res.rounds[:3]] == [{"--steps": "200"}, {"--steps": "50"}, {"--steps": "600"}][:len(res.rounds)]
    impl = json.loads((tmp_path / "out" / "impl-coverage.json").read_text())
    assert impl["branches"] > 0 and 0 < impl["covered"] <= impl["branches"]
    assert all(p["file"].startswith("lockservice/") for p in impl["points"])  # the harness is not the system


def test_cli_until_coverage_json(tmp_path, capsys):
    from specula.cli import main

    rc = main(["bench", "traces", str(SYSTEMS / "ringbuffer"), "--until-coverage", "--out", str(tmp_path),
               "--batch", "1", "--max-rounds", "2", "--json"])
    assert rc == 0
    d = json.loads(capsys.readouterr().out)
    assert d["schema"] == "specula.bench.steer/1" and d["spec_covered"] >= 2 and len(d["rounds"]) >= 1
