"""A hand-written plain-Python BFS of specs/LeaderElection.tla (issue 19's yardstick).

The same model as the spec, written directly in Python: a state is a tuple
``(term, role, votedFor, votes, msgs)`` of tuples (``votes`` as one bit mask per server,
``msgs`` a frozenset of message tuples), the seen states a Python set, each action a Python
function yielding its successors. No TLA+ evaluator is involved: this is what "Python itself"
costs on the model, the figure issue 19 asks specula to stay within 1.5x of.

Counts are TLC's: ``distinct`` the reachable states, ``generated`` the initial states plus
every successor of every explored state, one per enabled action instance (an action whose
successor equals its state, or a state another action also reaches, counts again), ``depth``
the number of BFS levels (the initial state is level 1). The script compares them with the
counts TLC 2.18 gave for the same constants (``TLC_COUNTS``; ``--tlc`` runs TLC itself where
SPECULA_TLA2TOOLS is set) and exits 1 when they differ.

    python benchmarks/perf/hand_bfs.py [--cfg specs/LeaderElection.cfg | --n 3 --max-term 2]
        [--json] [--tlc]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPEC = HERE / "specs" / "LeaderElection.tla"
CFG = HERE / "specs" / "LeaderElection.cfg"

# (N, MaxTerm) -> (distinct, generated, depth), measured with TLC 2.18 -workers 1 on specs/LeaderElection.tla
TLC_COUNTS: dict[tuple[int, int], tuple[int, int, int]] = {
    (2, 1): (13, 27, 5),
    (2, 2): (219, 813, 11),
    (2, 3): (3_587, 18_221, 15),
    (3, 1): (263, 1_327, 10),
    (3, 2): (346_335, 3_336_178, 22),
    (4, 1): (12_769, 130_825, 17),
}

# a state: (term, role, votedFor, votes, msgs); servers are 1..N, stored at index s - 1; Nil = 0
# messages: ("req", term, src, dst) and ("resp", term, src, dst, granted)
State = tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...], tuple[int, ...], frozenset]


@dataclass(frozen=True)
class BfsResult:
    n: int
    max_term: int
    distinct: int
    generated: int
    depth: int
    violation: State | None
    wall: float
    cpu: float
    rss_mb: float


def _put(tup: tuple, i: int, v: object) -> tuple:
    return tup[:i] + (v,) + tup[i + 1:]


def init(n: int) -> State:
    return ((0,) * n, ("F",) * n, (0,) * n, (0,) * n, frozenset())


def timeout(st: State, i: int, n: int, max_term: int) -> Iterator[State]:
    """Timeout(s), s = i + 1: a new term, a candidate voting for itself, requests to the others."""
    term, role, voted, votes, msgs = st
    if role[i] != "L" and term[i] < max_term:
        t = term[i] + 1
        reqs = frozenset(("req", t, i + 1, j + 1) for j in range(n) if j != i)
        yield (_put(term, i, t), _put(role, i, "C"), _put(voted, i, i + 1), _put(votes, i, 1 << i), msgs | reqs)


def become_leader(st: State, i: int, n: int) -> Iterator[State]:
    """BecomeLeader(s): a candidate with a majority of votes."""
    term, role, voted, votes, msgs = st
    if role[i] == "C" and votes[i].bit_count() * 2 > n:
        yield (term, _put(role, i, "L"), voted, votes, msgs)


def handle_request(st: State, m: tuple) -> Iterator[State]:
    """HandleRequest(m): dst moves to a newer term, grants if it has not voted for another, answers."""
    term, role, voted, votes, msgs = st
    _, mterm, src, dst = m
    t = dst - 1
    newer = mterm > term[t]
    now = mterm if newer else term[t]
    vote = 0 if newer else voted[t]
    grant = mterm == now and vote in (0, src)
    yield (_put(term, t, now), _put(role, t, "F") if newer else role, _put(voted, t, src if grant else vote),
           _put(votes, t, 0) if newer else votes, msgs | {("resp", now, dst, src, grant)})


def handle_response(st: State, m: tuple) -> Iterator[State]:
    """HandleResponse(m): a newer term makes dst a follower; a granted vote of its term counts."""
    term, role, voted, votes, msgs = st
    _, mterm, src, dst, granted = m
    s = dst - 1
    if mterm > term[s]:
        yield (_put(term, s, mterm), _put(role, s, "F"), _put(voted, s, 0), _put(votes, s, 0), msgs)
    elif mterm == term[s] and role[s] == "C" and granted:
        yield (term, role, voted, _put(votes, s, votes[s] | 1 << (src - 1)), msgs)


def successors(st: State, n: int, max_term: int) -> Iterator[State]:
    for i in range(n):
        yield from timeout(st, i, n, max_term)
        yield from become_leader(st, i, n)
    for m in st[4]:
        if m[0] == "req":
            yield from handle_request(st, m)
        else:
            yield from handle_response(st, m)


def one_leader_per_term(st: State) -> bool:
    term, role = st[0], st[1]
    leaders = [term[i] for i in range(len(role)) if role[i] == "L"]
    return len(leaders) == len(set(leaders))


def bfs(n: int, max_term: int) -> BfsResult:
    wall0, cpu0 = time.perf_counter(), time.process_time()
    first = init(n)
    seen: set[State] = {first}
    generated = 1
    depth = 1
    violation = None if one_leader_per_term(first) else first
    level = [first]
    while level and violation is None:
        nxt: list[State] = []
        for st in level:
            for succ in successors(st, n, max_term):
                generated += 1
                if succ not in seen:
                    seen.add(succ)
                    nxt.append(succ)
                    if not one_leader_per_term(succ):
                        violation = succ
        if nxt:
            depth += 1
        level = nxt
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return BfsResult(n, max_term, len(seen), generated, depth, violation,
                     time.perf_counter() - wall0, time.process_time() - cpu0, rss_mb)


def constants_of(cfg: Path) -> tuple[int, int]:
    text = cfg.read_text()
    found = {k: int(v) for k, v in re.findall(r"\b(N|MaxTerm)\s*=\s*(\d+)", text)}
    if set(found) != {"N", "MaxTerm"}:
        raise SystemExit(f"{cfg}: no N = .. and MaxTerm = .. constants")
    return found["N"], found["MaxTerm"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cfg", type=Path, default=None, help="read N and MaxTerm from this cfg (default specs/LeaderElection.cfg)")
    ap.add_argument("--n", type=int, default=None)
    ap.add_argument("--max-term", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--tlc", action="store_true", help="also run TLC on the spec (SPECULA_TLA2TOOLS) and compare")
    a = ap.parse_args()
    n, max_term = constants_of(a.cfg or CFG)
    n = a.n if a.n is not None else n
    max_term = a.max_term if a.max_term is not None else max_term
    r = bfs(n, max_term)
    expected = TLC_COUNTS.get((n, max_term))
    if a.tlc:
        import tempfile

        sys.path.insert(0, str(HERE))
        from checker_tlc import run_tlc

        with tempfile.TemporaryDirectory() as tmp:
            cfg = Path(tmp) / "LeaderElection.cfg"
            cfg.write_text(re.sub(r"\bMaxTerm\s*=\s*\d+", f"MaxTerm = {max_term}",
                                  re.sub(r"\bN\s*=\s*\d+", f"N = {n}", CFG.read_text())))
            t = run_tlc(SPEC, cfg, timeout=3600)
        expected = (t.distinct, t.generated, t.depth)
    counts = (r.distinct, r.generated, r.depth)
    same = None if expected is None else counts == expected
    if a.json:
        out = asdict(r)
        out["violation"] = None if r.violation is None else repr(r.violation)
        out["tlc"] = None if expected is None else dict(zip(("distinct", "generated", "depth"), expected))
        out["same_as_tlc"] = same
        print(json.dumps(out))
    else:
        print(f"LeaderElection N={n} MaxTerm={max_term}: {r.distinct:,} distinct, {r.generated:,} generated, "
              f"depth {r.depth}; {'invariant OneLeaderPerTerm holds' if r.violation is None else 'VIOLATED'}")
        print(f"wall {r.wall:.2f} s, cpu {r.cpu:.2f} s, peak RSS {r.rss_mb:.0f} MB")
        if expected is None:
            print("no TLC counts recorded for these constants (--tlc runs TLC)")
        else:
            print("same as TLC" if same else f"DIFFER from TLC: {expected[0]:,} distinct, {expected[1]:,} generated, depth {expected[2]}")
    return 0 if same is not False and r.violation is None else 1


if __name__ == "__main__":
    sys.exit(main())
