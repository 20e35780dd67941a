"""Precision of the repo map's first half: does the map put the protocol core first?

For a few focus queries per repository, the map (default budget 4,000 tokens) is rendered and
its first half (by source lines, file headers not counted) is scored: a line is relevant when the
symbol it belongs to (a field line belongs to its type, a local to its function) matches one of
the query's hand-written patterns over ``file::qualname``. Also reports whether the symbols the
issue names appear in the first half. Checkouts are not part of the repository:

    python benchmarks/perf/code_map_precision.py --root DIR [--budget 4000] [--json]

where DIR holds ``apache+zookeeper`` and ``etcd-io+raft`` (work trees of the repositories).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Query:
    repo: str
    focus: str
    relevant: list[str]  # regexes over "path::qualname" (search, not full match)
    must: list[str] = field(default_factory=list)  # names that must be in the first half


QUERIES = [
    Query("apache+zookeeper", "fast leader election: handling notifications, recvset votes, logicalclock epochs",
          [r"quorum/FastLeaderElection\.java::", r"quorum/Vote\.java::", r"quorum/Election\.java::",
           r"quorum/QuorumPeer\.java::QuorumPeer\.(getCurrentVote|setCurrentVote|getPeerState|setPeerState|"
           r"createElectionAlgorithm|startLeaderElection|ServerState)"],
          ["lookForLeader", "recvset", "logicalclock"]),
    Query("apache+zookeeper", "atomic broadcast: the leader proposes, followers ack, commit on a quorum of acks",
          [r"quorum/(Leader|Follower|Learner|LearnerHandler|LearnerMaster|Proposal|SyncedLearnerTracker)\.java::",
           r"quorum/(ProposalRequestProcessor|CommitProcessor|SendAckRequestProcessor|AckRequestProcessor|"
           r"FollowerRequestProcessor|LeaderRequestProcessor)\.java::",
           r"server/SyncRequestProcessor\.java::", r"quorum/flexible/Quorum"],
          ["processAck", "tryToCommit", "propose"]),
    Query("apache+zookeeper", "session tracking: touch session, session expiry and session timeout",
          [r"Session(Tracker|TrackerImpl)\.java::", r"quorum/(Learner|Leader|Local|Upgradeable)SessionTracker\.java::",
           r"server/ExpiryQueue\.java::", r"ZooKeeperServer\.java::ZooKeeperServer\.(touch|expire|createSession|"
           r"closeSession|revalidateSession|setSessionTracker|createSessionTracker|startSessionTracker)"],
          ["touchSession", "ExpiryQueue"]),
    Query("etcd-io+raft", "leader election: campaign, votes, becoming candidate and leader",
          [r"^raft\.go::(raft\.)?(campaign|becomeCandidate|becomePreCandidate|becomeLeader|becomeFollower|poll|hup|"
           r"tickElection|Step|stepCandidate|stepFollower|stepLeader|reset|pastElectionTimeout|promotable|"
           r"resetRandomizedElectionTimeout|raft|CampaignType|StateType|send)$",
           r"tracker/tracker\.go::ProgressTracker(\.(RecordVote|TallyVotes|ResetVotes|QuorumActive))?$",
           r"quorum/.*::.*(VoteResult|Vote)", r"^node\.go::.*Campaign", r"^rawnode\.go::.*Campaign"],
          ["campaign", "becomeCandidate", "poll"]),
    Query("etcd-io+raft", "log replication: append entries to followers, match index, commit index advance",
          [r"^raft\.go::(raft\.)?(sendAppend|maybeSendAppend|bcastAppend|handleAppendEntries|appendEntry|maybeCommit|"
           r"stepLeader|stepFollower|Step|send|raft)$",
           r"^log\.go::", r"^log_unstable\.go::", r"tracker/progress\.go::", r"tracker/inflights\.go::",
           r"tracker/tracker\.go::.*(Committed|Progress)", r"quorum/.*CommittedIndex"],
          ["handleAppendEntries", "maybeCommit", "maybeAppend"]),
    Query("etcd-io+raft", "linearizable reads: read index requests, read-only queue confirmed by heartbeat acks",
          [r"^read_only\.go::", r"^raft\.go::(raft\.)?(sendHeartbeat|bcastHeartbeat|bcastHeartbeatWithCtx|handleHeartbeat|"
           r"stepLeader|stepFollower|sendMsgReadIndexResponse|responseToReadIndexReq|committedEntryInCurrentTerm|"
           r"ReadState|raft)$", r"^(node|rawnode)\.go::.*ReadIndex", r"^raft\.go::.*ReadOnly"],
          ["readOnly", "addRequest", "recvAck"]),
]

_LINE = re.compile(r"^\s*(\d+)│")


@dataclass
class Result:
    repo: str
    focus: str
    map_lines: int
    first_half_lines: int
    relevant_lines: int
    precision: float
    must: dict[str, int]  # name -> line of the map where it first appears (0 = absent)
    must_in_first_half: bool


def _owners(text: str, entries) -> list[tuple[str, str] | None]:
    """Per rendered line: (file, qualname) of the entry it belongs to, None for headers."""
    starts = {(e.symbol.file, e.symbol.line): e.symbol for e in entries}
    out: list[tuple[str, str] | None] = []
    path = ""
    owner: tuple[str, str] | None = None
    for i, line in enumerate(text.splitlines()):
        m = _LINE.match(line)
        if i == 0 or not m:
            if not m and line.endswith(":") and i > 0:
                path = line[:-1]
            out.append(None)
            continue
        sym = starts.get((path, int(m.group(1))))
        if sym is not None and not line.split("│", 1)[1].startswith("    "):  # an entry, not a member line
            owner = (path, sym.qualname)
        out.append(owner)
    return out


def score(ix, q: Query, budget: int) -> Result:
    from specula.code import repo_map

    m = repo_map(ix, q.focus, budget)
    owners = _owners(m.text, m.entries)
    body = [i for i, o in enumerate(owners) if o is not None]
    half = body[: (len(body) + 1) // 2]
    pats = [re.compile(p) for p in q.relevant]
    rel = sum(1 for i in half if any(p.search(f"{owners[i][0]}::{owners[i][1]}") for p in pats))
    lines = m.text.splitlines()
    last = half[-1] if half else -1
    must = {}
    for name in q.must:
        word = re.compile(rf"\b{re.escape(name)}\b")
        must[name] = next((i + 1 for i, ln in enumerate(lines) if "│" in ln and word.search(ln.split("│", 1)[1])), 0)
    return Result(q.repo, q.focus, len(body), len(half), rel, round(rel / len(half), 3) if half else 0.0, must,
                  all(0 < v <= last + 1 for v in must.values()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default="/tmp/code", help="folder holding the checkouts (owner+name)")
    ap.add_argument("--budget", type=int, default=4000)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from specula.code import index_repo

    results: list[Result] = []
    indexes = {}
    for q in QUERIES:
        path = Path(args.root) / q.repo
        if not path.is_dir():
            print(f"skip {q.repo}: not under {args.root}", file=sys.stderr)
            continue
        if q.repo not in indexes:
            indexes[q.repo] = index_repo(path)
        results.append(score(indexes[q.repo], q, args.budget))
    if args.json:
        print(json.dumps([r.__dict__ for r in results], indent=2))
        return 0
    for r in results:
        names = ", ".join(f"{k}@{v or '-'}" for k, v in r.must.items())
        print(f"{r.repo:<18} precision {r.precision:5.2f} ({r.relevant_lines}/{r.first_half_lines} of "
              f"{r.map_lines} lines)  named in first half: {'yes' if r.must_in_first_half else 'NO '} ({names})  "
              f"| {r.focus}")
    by_repo: dict[str, list[float]] = {}
    for r in results:
        by_repo.setdefault(r.repo, []).append(r.precision)
    for repo, ps in by_repo.items():
        print(f"{repo:<18} mean precision {sum(ps) / len(ps):.2f} over {len(ps)} queries")
    return 0 if all(r.must_in_first_half for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
