"""Code index acceptance on real repositories: cold/warm index time, expected symbols, map ranks.

Checkouts are not part of the repository; clone them first, e.g. into /tmp/code/:

    etcd-io+raft  apache+zookeeper  RedisLabs+redisraft  tikv+raft-rs

    python benchmarks/perf/code_index.py [--root /tmp/code] [--json]

For each repository: index cold (empty cache, fresh process pool decision), index warm (cache),
find the symbols a person would expect, and rank them for a focus (position in the ranking and
whether the map for a 2,000-token budget shows them). ZooKeeper is also indexed with its tests
(about 1,000 Java files) for the < 10 s target.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Case:
    dir: str
    focus: str
    expect: list[str]  # qualnames (or names) that must be found and should rank on top
    include_tests: bool = False
    label: str = ""


CASES = [
    Case("etcd-io+raft",
         "Raft leader election in etcd raft: a follower times out (stepFollower), becomes candidate "
         "(becomeCandidate), campaigns for votes (stepCandidate, poll) and becomes leader (becomeLeader).",
         ["stepFollower", "raft.becomeCandidate", "stepCandidate", "raft.becomeLeader", "raft.poll", "raft"]),
    Case("etcd-io+raft", "stepFollower becomeCandidate", ["stepFollower", "raft.becomeCandidate"],
         include_tests=True, label="etcd-io+raft (with tests)"),
    Case("apache+zookeeper",
         "ZooKeeper FastLeaderElection: lookForLeader collects votes in the recvset map, bumps logicalclock, "
         "sendNotifications, compares votes with totalOrderPredicate and decides with checkLeader.",
         ["FastLeaderElection.lookForLeader", "FastLeaderElection.lookForLeader.recvset",
          "FastLeaderElection.totalOrderPredicate", "FastLeaderElection.sendNotifications",
          "FastLeaderElection.checkLeader", "FastLeaderElection"]),
    Case("apache+zookeeper", "ZooKeeper FastLeaderElection lookForLeader recvset",
         ["FastLeaderElection.lookForLeader", "FastLeaderElection.lookForLeader.recvset"],
         include_tests=True, label="apache+zookeeper (with tests)"),
    Case("RedisLabs+redisraft",
         "RedisRaft: how the Raft callbacks send RequestVote and AppendEntries (raftSendRequestVote, "
         "raftSendAppendEntries), apply log entries (raftApplyLog) and keep state in RedisRaftCtx.",
         ["raftSendRequestVote", "raftSendAppendEntries", "raftApplyLog", "RedisRaftCtx"]),
    Case("tikv+raft-rs",
         "raft-rs election: become_candidate, step_follower, step_candidate, become_leader, poll votes, "
         "the Raft and RaftCore state.",
         ["Raft.become_candidate", "Raft.step_follower", "Raft.step_candidate", "Raft.become_leader", "RaftCore"]),
    Case("asterinas+asterinas",
         "Asterinas spin lock (SysMoBench task spin): AcquireLock, ReleaseLock in ostd/src/sync/spin.rs",
         ["SpinLock.acquire_lock", "SpinLock.release_lock", "SpinLock", "SpinLockInner"]),
]


@dataclass
class Row:
    repo: str
    files: int
    symbols: int
    calls: int
    cold_s: float
    cold_cpu_s: float  # user+sys of this process and its pool workers
    warm_s: float
    workers: int
    map_s: float
    map_tokens: int
    found: dict[str, str] = field(default_factory=dict)  # expected -> file:line, or "" if missing
    rank: dict[str, int] = field(default_factory=dict)  # expected -> 1-based rank among functions/types/globals
    in_map: dict[str, bool] = field(default_factory=dict)
    top: list[str] = field(default_factory=list)


def _cpu() -> float:
    import resource

    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_case(root: Path, case: Case, budget: int) -> Row:
    from specula.code import IndexOptions, TagCache, find_symbols, index_repo, repo_map

    repo = root / case.dir
    opts = IndexOptions(include_tests=case.include_tests)
    with tempfile.TemporaryDirectory() as tmp:
        cache = TagCache(Path(tmp))
        t, c = time.perf_counter(), _cpu()
        ix = index_repo(repo, opts, cache=cache)
        cold, cold_cpu = time.perf_counter() - t, _cpu() - c
        t = time.perf_counter()
        index_repo(repo, opts, cache=cache)
        warm = time.perf_counter() - t
        cache.close()
    t = time.perf_counter()
    m = repo_map(ix, case.focus, budget)
    map_s = time.perf_counter() - t
    from specula.code import rank_symbols

    ranked = rank_symbols(ix, case.focus)
    pos = {}
    for i, r in enumerate(ranked, 1):
        pos.setdefault(r.symbol.qualname, i)
        pos.setdefault(r.symbol.name, i)
    row = Row(case.label or case.dir, len(ix.files), len(ix.symbols), len(ix.calls), round(cold, 3),
              round(cold_cpu, 3), round(warm, 3),
              ix.stats.workers, round(map_s, 3), m.tokens)
    shown = {e.symbol.qualname for e in m.entries} | {e.symbol.name for e in m.entries}
    for q in case.expect:
        hits = [s for s in find_symbols(ix, q).symbols if s.qualname == q or s.name == q]
        row.found[q] = hits[0].location if hits else ""
        if hits and hits[0].kind == "local":  # locals rank with their function and show inside it
            parent = hits[0].parent or ""
            row.rank[q] = pos.get(parent, 0)
            row.in_map[q] = parent in shown and f"{hits[0].line:>5}│" in m.text
        else:
            row.rank[q] = pos.get(q, 0)
            row.in_map[q] = q in shown
    row.top = [f"{r.symbol.kind} {r.symbol.qualname}" for r in ranked[:8]]
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="/tmp/code", help="folder holding the checkouts")
    ap.add_argument("--budget", type=int, default=2000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", default="", help="run only cases whose label contains this")
    args = ap.parse_args(argv)
    root = Path(args.root)
    rows = []
    for case in CASES:
        if args.only and args.only not in (case.label or case.dir):
            continue
        if not (root / case.dir).is_dir():
            print(f"skip {case.dir}: not checked out under {root}", file=sys.stderr)
            continue
        rows.append(run_case(root, case, args.budget))
    if args.json:
        print(json.dumps([r.__dict__ for r in rows], indent=2))
        return 0
    ok = True
    for r in rows:
        print(f"== {r.repo}: {r.files} files, {r.symbols} symbols, {r.calls} call edges")
        print(f"   index cold {r.cold_s:.2f}s wall / {r.cold_cpu_s:.2f}s cpu ({r.workers} worker(s)), warm {r.warm_s:.2f}s; "
              f"map {r.map_s:.2f}s, {r.map_tokens} tokens")
        for q, loc in r.found.items():
            mark = "ok " if loc and r.in_map[q] else "MISSING" if not loc else "not-in-map"
            ok &= bool(loc) and r.in_map[q]
            print(f"   {mark:<10} {q:<45} {loc or '-':<60} rank {r.rank[q]}")
        print("   top: " + "; ".join(r.top))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
