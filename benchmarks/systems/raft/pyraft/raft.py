"""Raft node in the shape of etcd raft.go: Step(m) on every message, tick() on every clock tick.

Kept from etcd on purpose: pre-vote (a pre-candidate neither bumps its term nor votes for
itself in the term; pre-vote requests carry term+1 and do not move the receiver's term); a
new leader appends an empty entry of its term; the vote rule ``canVote`` (same candidate again,
or no vote and no known leader, or a pre-vote for a higher term) plus the log up-to-date check;
messages from a higher term make the receiver a follower before they are handled (except
pre-vote traffic); stale MsgApp/MsgHeartbeat are answered with a MsgAppResp carrying our term;
followers never decrease their commit index; the leader commits the largest index a quorum of
``match`` values reaches, and only if that entry is from its current term.
Left out: checkQuorum/lease, leader transfer, snapshots, flow control, read index,
configuration changes. Proposals are only made at the leader.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from .log import Entry, RaftLog

NONE = 0

StateFollower = "StateFollower"
StatePreCandidate = "StatePreCandidate"
StateCandidate = "StateCandidate"
StateLeader = "StateLeader"

MsgHup = "MsgHup"
MsgBeat = "MsgBeat"
MsgProp = "MsgProp"
MsgApp = "MsgApp"
MsgAppResp = "MsgAppResp"
MsgVote = "MsgVote"
MsgVoteResp = "MsgVoteResp"
MsgPreVote = "MsgPreVote"
MsgPreVoteResp = "MsgPreVoteResp"
MsgHeartbeat = "MsgHeartbeat"
MsgHeartbeatResp = "MsgHeartbeatResp"


@dataclass(frozen=True)
class Message:
    type: str
    to: int = NONE
    frm: int = NONE
    term: int = 0
    log_term: int = 0
    index: int = 0
    entries: tuple[Entry, ...] = ()
    commit: int = 0
    reject: bool = False
    reject_hint: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "from": self.frm, "to": self.to, "term": self.term,
                "logTerm": self.log_term, "index": self.index,
                "entries": [{"term": e.term} for e in self.entries], "commit": self.commit,
                "reject": self.reject, "rejectHint": self.reject_hint}


@dataclass
class Progress:
    match: int = 0
    next: int = 1


def vote_resp_type(t: str) -> str:
    return MsgVoteResp if t == MsgVote else MsgPreVoteResp


@dataclass
class Raft:
    id: int
    peers: list[int]
    election_timeout: int = 10
    heartbeat_timeout: int = 1
    rng: random.Random = field(default_factory=random.Random)
    term: int = 0
    vote: int = NONE
    lead: int = NONE
    state: str = StateFollower
    raft_log: RaftLog = field(default_factory=RaftLog)
    prs: dict[int, Progress] = field(default_factory=dict)
    votes: dict[int, bool] = field(default_factory=dict)
    msgs: list[Message] = field(default_factory=list)          # outbox, drained by the transport
    election_elapsed: int = 0
    heartbeat_elapsed: int = 0
    randomized_election_timeout: int = 0
    pre_vote: bool = True

    def __post_init__(self) -> None:
        self.peers = sorted(self.peers)
        self.become_follower(self.term, NONE)

    # -- helpers -------------------------------------------------------------------------
    def quorum(self) -> int:
        return len(self.peers) // 2 + 1

    def send(self, m: Message) -> None:
        if m.frm == NONE:
            m = Message(**{**m.__dict__, "frm": self.id})
        self.msgs.append(m)

    def reset(self, term: int) -> None:
        if self.term != term:
            self.term = term
            self.vote = NONE
        self.lead = NONE
        self.election_elapsed = 0
        self.heartbeat_elapsed = 0
        self.reset_randomized_election_timeout()
        self.votes = {}
        last = self.raft_log.last_index()
        self.prs = {p: Progress(match=last if p == self.id else 0, next=last + 1)
                    for p in self.peers}

    def reset_randomized_election_timeout(self) -> None:
        self.randomized_election_timeout = self.election_timeout + self.rng.randrange(
            self.election_timeout)

    # -- role changes ----------------------------------------------------------------------
    def become_follower(self, term: int, lead: int) -> None:
        self.reset(term)
        self.lead = lead
        self.state = StateFollower

    def become_pre_candidate(self) -> None:
        assert self.state != StateLeader, "invalid transition [leader -> pre-candidate]"
        # Neither the term nor the vote changes.
        self.votes = {}
        self.lead = NONE
        self.state = StatePreCandidate

    def become_candidate(self) -> None:
        assert self.state != StateLeader, "invalid transition [leader -> candidate]"
        self.reset(self.term + 1)
        self.vote = self.id
        self.state = StateCandidate

    def become_leader(self) -> None:
        assert self.state != StateFollower, "invalid transition [follower -> leader]"
        self.reset(self.term)
        self.lead = self.id
        self.state = StateLeader
        # An empty entry of the new term: commits entries of earlier terms once replicated.
        self.append_entry([Entry(self.term, 0, "")])

    # -- ticks ----------------------------------------------------------------------------
    def tick(self) -> None:
        if self.state == StateLeader:
            self.tick_heartbeat()
        else:
            self.tick_election()

    def tick_election(self) -> None:
        self.election_elapsed += 1
        if self.past_election_timeout():
            self.election_elapsed = 0
            self.step(Message(MsgHup, frm=self.id))

    def tick_heartbeat(self) -> None:
        self.heartbeat_elapsed += 1
        self.election_elapsed += 1
        if self.heartbeat_elapsed >= self.heartbeat_timeout:
            self.heartbeat_elapsed = 0
            self.step(Message(MsgBeat, frm=self.id))

    def past_election_timeout(self) -> bool:
        return self.election_elapsed >= self.randomized_election_timeout

    # -- campaigning ------------------------------------------------------------------------
    def hup(self) -> None:
        if self.state == StateLeader:
            return
        if self.pre_vote:
            self.campaign(MsgPreVote)
        else:
            self.campaign(MsgVote)

    def campaign(self, kind: str) -> None:
        if kind == MsgPreVote:
            self.become_pre_candidate()
            vote_msg, term = MsgPreVote, self.term + 1
        else:
            self.become_candidate()
            vote_msg, term = MsgVote, self.term
        if self.poll(self.id, vote_resp_type(vote_msg), True) == "won":
            # Single-node cluster: won at once.
            if kind == MsgPreVote:
                self.campaign(MsgVote)
            else:
                self.become_leader()
            return
        for p in self.peers:
            if p != self.id:
                self.send(Message(vote_msg, to=p, term=term, index=self.raft_log.last_index(),
                                  log_term=self.raft_log.last_term()))

    def poll(self, frm: int, kind: str, granted: bool) -> str:
        self.votes.setdefault(frm, granted)
        yes = sum(1 for v in self.votes.values() if v)
        no = len(self.votes) - yes
        if yes >= self.quorum():
            return "won"
        if no >= self.quorum():
            return "lost"
        return "pending"

    # -- Step -------------------------------------------------------------------------------
    def step(self, m: Message) -> None:
        """Handle one message (local ones have term 0)."""
        if m.term == 0:
            pass
        elif m.term > self.term:
            if m.type == MsgPreVote:
                pass                                  # never change our term on a pre-vote
            elif m.type == MsgPreVoteResp and not m.reject:
                pass                                  # a granted pre-vote carries term+1
            elif m.type in (MsgApp, MsgHeartbeat):
                self.become_follower(m.term, m.frm)
            else:
                self.become_follower(m.term, NONE)
        elif m.term < self.term:
            if self.pre_vote and m.type in (MsgHeartbeat, MsgApp):
                # A leader partitioned away: our higher term makes it step down.
                self.send(Message(MsgAppResp, to=m.frm, term=self.term))
            elif m.type == MsgPreVote:
                self.send(Message(MsgPreVoteResp, to=m.frm, term=self.term, reject=True))
            return

        if m.type == MsgHup:
            self.hup()
        elif m.type in (MsgVote, MsgPreVote):
            can_vote = (self.vote == m.frm
                        or (self.vote == NONE and self.lead == NONE)
                        or (m.type == MsgPreVote and m.term > self.term))
            if can_vote and self.raft_log.is_up_to_date(m.index, m.log_term):
                self.send(Message(vote_resp_type(m.type), to=m.frm, term=m.term))
                if m.type == MsgVote:
                    self.election_elapsed = 0
                    self.vote = m.frm
            else:
                self.send(Message(vote_resp_type(m.type), to=m.frm, term=self.term, reject=True))
        elif self.state == StateLeader:
            self.step_leader(m)
        elif self.state in (StateCandidate, StatePreCandidate):
            self.step_candidate(m)
        else:
            self.step_follower(m)

    def step_leader(self, m: Message) -> None:
        if m.type == MsgBeat:
            self.bcast_heartbeat()
        elif m.type == MsgProp:
            self.append_entry([Entry(self.term, 0, e.data) for e in m.entries])
            self.bcast_append()
        elif m.type == MsgAppResp:
            pr = self.prs[m.frm]
            if m.reject:
                # Only a rejection of what we last sent moves next back (stale ones are ignored).
                if m.index == pr.next - 1:
                    pr.next = max(min(m.index, m.reject_hint + 1), pr.match + 1)
                    self.send_append(m.frm)
            elif m.index > pr.match:
                pr.match = m.index
                pr.next = max(pr.next, m.index + 1)
                if self.maybe_commit():
                    self.bcast_append()
                elif pr.next <= self.raft_log.last_index():
                    self.send_append(m.frm)
        elif m.type == MsgHeartbeatResp:
            if self.prs[m.frm].match < self.raft_log.last_index():
                self.send_append(m.frm)

    def step_candidate(self, m: Message) -> None:
        my_resp = MsgPreVoteResp if self.state == StatePreCandidate else MsgVoteResp
        if m.type == MsgApp:
            self.become_follower(m.term, m.frm)
            self.handle_append_entries(m)
        elif m.type == MsgHeartbeat:
            self.become_follower(m.term, m.frm)
            self.handle_heartbeat(m)
        elif m.type == my_resp:
            res = self.poll(m.frm, m.type, not m.reject)
            if res == "won":
                if self.state == StatePreCandidate:
                    self.campaign(MsgVote)
                else:
                    self.become_leader()
                    self.bcast_append()
            elif res == "lost":
                self.become_follower(self.term, NONE)

    def step_follower(self, m: Message) -> None:
        if m.type == MsgApp:
            self.election_elapsed = 0
            self.lead = m.frm
            self.handle_append_entries(m)
        elif m.type == MsgHeartbeat:
            self.election_elapsed = 0
            self.lead = m.frm
            self.handle_heartbeat(m)

    # -- replication ----------------------------------------------------------------------
    def append_entry(self, es: list[Entry]) -> None:
        li = self.raft_log.last_index()
        es = [Entry(self.term, li + 1 + k, e.data) for k, e in enumerate(es)]
        self.raft_log.append(es)
        pr = self.prs[self.id]
        pr.match = max(pr.match, self.raft_log.last_index())
        pr.next = max(pr.next, pr.match + 1)
        self.maybe_commit()

    def maybe_commit(self) -> bool:
        matches = sorted((pr.match for pr in self.prs.values()), reverse=True)
        mci = matches[self.quorum() - 1]
        return self.raft_log.maybe_commit(mci, self.term)

    def send_append(self, to: int) -> None:
        pr = self.prs[to]
        prev = pr.next - 1
        self.send(Message(MsgApp, to=to, term=self.term, index=prev,
                          log_term=self.raft_log.term(prev),
                          entries=tuple(self.raft_log.slice_from(pr.next)),
                          commit=self.raft_log.committed))

    def bcast_append(self) -> None:
        for p in self.peers:
            if p != self.id:
                self.send_append(p)

    def bcast_heartbeat(self) -> None:
        for p in self.peers:
            if p != self.id:
                commit = min(self.prs[p].match, self.raft_log.committed)
                self.send(Message(MsgHeartbeat, to=p, term=self.term, commit=commit))

    def handle_append_entries(self, m: Message) -> None:
        if m.index < self.raft_log.committed:
            self.send(Message(MsgAppResp, to=m.frm, term=self.term, index=self.raft_log.committed))
            return
        lastnewi, ok = self.raft_log.maybe_append(m.index, m.log_term, m.commit, list(m.entries))
        if ok:
            self.send(Message(MsgAppResp, to=m.frm, term=self.term, index=lastnewi))
        else:
            self.send(Message(MsgAppResp, to=m.frm, term=self.term, index=m.index, reject=True,
                              reject_hint=self.raft_log.last_index()))

    def handle_heartbeat(self, m: Message) -> None:
        self.raft_log.commit_to(m.commit)
        self.send(Message(MsgHeartbeatResp, to=m.frm, term=self.term))

    # -- observation ------------------------------------------------------------------------
    def observe(self) -> dict[str, Any]:
        return {"currentTerm": self.term, "state": self.state, "votedFor": self.vote,
                "lead": self.lead, "log": [{"term": e.term} for e in self.raft_log.entries],
                "commitIndex": self.raft_log.committed,
                "votesGranted": sorted(p for p, v in self.votes.items() if v),
                "votesRejected": sorted(p for p, v in self.votes.items() if not v),
                "matchIndex": {str(p): pr.match for p, pr in sorted(self.prs.items())},
                "nextIndex": {str(p): pr.next for p, pr in sorted(self.prs.items())}}
