"""Fast leader election, in the shape of ZooKeeper's FastLeaderElection.lookForLeader.

Details kept on purpose (they are what the real code does):
- received votes live in a map keyed by sender (``recvset``): a newer notification from the same
  peer overwrites its older vote instead of being added beside it;
- a notification from a higher election epoch first moves ``logicalclock`` up to that epoch and
  clears ``recvset``; the notification is then processed like a same-epoch one (its vote is put
  into the fresh ``recvset`` and the quorum test runs);
- a peer's own notification travels through the network to itself, like in ZooKeeper where the
  message to self is queued on ``recvqueue``;
- a would-be leader waits (finalize wait) before leading and gives up if a better notification is
  pending; a follower commits to its proposal as soon as a quorum agrees with it;
- peers that are not LOOKING answer a LOOKING peer with their current vote; a LOOKING peer answers
  a peer from an older election epoch with its own notification.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .network import Network

LOOKING = "LOOKING"
FOLLOWING = "FOLLOWING"
LEADING = "LEADING"


@dataclass(frozen=True)
class Vote:
    leader: int
    zxid: int
    election_epoch: int
    state: str = LOOKING

    def same_as(self, other: "Vote") -> bool:
        """Vote.equals in ZooKeeper: the peer state does not take part."""
        return (self.leader, self.zxid, self.election_epoch) == (
            other.leader, other.zxid, other.election_epoch)


@dataclass(frozen=True)
class Notification:
    sid: int            # sender
    to: int
    state: str          # sender's peer state
    leader: int
    zxid: int
    election_epoch: int

    def to_json(self) -> dict[str, Any]:
        return {"from": self.sid, "to": self.to, "state": self.state, "leader": self.leader,
                "zxid": self.zxid, "epoch": self.election_epoch}


def total_order_predicate(new_id: int, new_zxid: int, cur_id: int, cur_zxid: int) -> bool:
    """Is the vote (new_id, new_zxid) better than (cur_id, cur_zxid)? Higher zxid, then higher id."""
    return new_zxid > cur_zxid or (new_zxid == cur_zxid and new_id > cur_id)


class FastLeaderElection:
    """One peer's election state. ``on_event(action, actor, input)`` is the trace hook."""

    def __init__(self, sid: int, voters: list[int], last_logged_zxid: int,
                 network: Network[Notification],
                 on_event: Callable[[str, int, dict[str, Any] | None], None] | None = None) -> None:
        self.sid = sid
        self.voters = sorted(voters)
        self.last_logged_zxid = last_logged_zxid
        self.network = network
        self.on_event = on_event or (lambda action, actor, msg: None)
        self.reset()

    # -- lifecycle -------------------------------------------------------------------------
    def reset(self) -> None:
        """Process (re)start: everything below is in memory only."""
        self.logicalclock = 0
        self.state = LOOKING
        self.electing = False
        self.proposed_leader = self.sid
        self.proposed_zxid = self.last_logged_zxid
        self.recvset: dict[int, Vote] = {}
        self.outofelection: dict[int, Vote] = {}

    def quorum(self) -> int:
        return len(self.voters) // 2 + 1

    def current_vote(self) -> Vote:
        return Vote(self.proposed_leader, self.proposed_zxid, self.logicalclock, self.state)

    def update_proposal(self, leader: int, zxid: int) -> None:
        self.proposed_leader = leader
        self.proposed_zxid = zxid

    def _send(self, to: int, state: str | None = None) -> None:
        self.network.send(Notification(self.sid, to, state or self.state, self.proposed_leader,
                                       self.proposed_zxid, self.logicalclock))

    def send_notifications(self) -> None:
        for peer in self.voters:          # including ourselves, as ZooKeeper does
            self._send(peer)

    def term_predicate(self, votes: dict[int, Vote], vote: Vote) -> bool:
        agreeing = [sid for sid, v in votes.items() if v.same_as(vote)]
        return len(agreeing) >= self.quorum()

    def check_leader(self, votes: dict[int, Vote], leader: int, election_epoch: int) -> bool:
        if leader != self.sid:
            v = votes.get(leader)
            return v is not None and v.state == LEADING
        return self.logicalclock == election_epoch

    # -- actions ---------------------------------------------------------------------------
    def look_for_leader(self) -> None:
        """Entry of lookForLeader: new round, vote for ourselves, tell everybody."""
        assert self.state == LOOKING and not self.electing
        self.electing = True
        self.recvset = {}
        self.outofelection = {}
        self.logicalclock += 1
        self.update_proposal(self.sid, self.last_logged_zxid)
        self.send_notifications()
        self.on_event("Notification", self.sid, None)

    def poll_timeout(self) -> None:
        """recvqueue.poll timed out with nothing received: send our notifications again."""
        assert self.state == LOOKING and self.electing
        self.send_notifications()
        self.on_event("Notification", self.sid, None)

    def receive(self, n: Notification) -> None:
        """WorkerReceiver + one iteration of lookForLeader's loop for notification ``n``."""
        self.network.take(n)
        if self.state != LOOKING:
            # Not electing: tell a LOOKING peer who we follow.
            if n.state == LOOKING:
                self._send(n.sid)
        else:
            self._handle_while_looking(n)
        self.on_event("HandleNotification", self.sid, n.to_json())

    def _handle_while_looking(self, n: Notification) -> None:
        if n.state == LOOKING:
            if n.election_epoch > self.logicalclock:
                # Catch up with the newer round first, then process the notification.
                self.logicalclock = n.election_epoch
                self.recvset.clear()
                if total_order_predicate(n.leader, n.zxid, self.sid, self.last_logged_zxid):
                    self.update_proposal(n.leader, n.zxid)
                else:
                    self.update_proposal(self.sid, self.last_logged_zxid)
                self.send_notifications()
            elif n.election_epoch < self.logicalclock:
                # Stale round: answer with our notification so the sender catches up.
                self._send(n.sid)
                return
            elif total_order_predicate(n.leader, n.zxid, self.proposed_leader, self.proposed_zxid):
                self.update_proposal(n.leader, n.zxid)
                self.send_notifications()
            self.recvset[n.sid] = Vote(n.leader, n.zxid, n.election_epoch)
            proposal = Vote(self.proposed_leader, self.proposed_zxid, self.logicalclock)
            if self.term_predicate(self.recvset, proposal) and self.proposed_leader != self.sid:
                self._decide(FOLLOWING)
            return
        # n.state is FOLLOWING or LEADING: somebody already decided.
        vote = Vote(n.leader, n.zxid, n.election_epoch, n.state)
        if n.election_epoch == self.logicalclock:
            self.recvset[n.sid] = vote
            if (self.term_predicate(self.recvset, vote)
                    and self.check_leader(self.recvset, n.leader, n.election_epoch)):
                self.update_proposal(n.leader, n.zxid)
                self._decide(LEADING if n.leader == self.sid else FOLLOWING)
                return
        self.outofelection[n.sid] = vote
        if (self.term_predicate(self.outofelection, vote)
                and self.check_leader(self.outofelection, n.leader, n.election_epoch)):
            self.logicalclock = n.election_epoch
            self.update_proposal(n.leader, n.zxid)
            self._decide(LEADING if n.leader == self.sid else FOLLOWING)

    def ready_to_lead(self) -> bool:
        proposal = Vote(self.proposed_leader, self.proposed_zxid, self.logicalclock)
        return (self.state == LOOKING and self.electing and self.proposed_leader == self.sid
                and self.term_predicate(self.recvset, proposal))

    def better_pending(self) -> bool:
        return any(total_order_predicate(m.leader, m.zxid, self.proposed_leader, self.proposed_zxid)
                   for m in self.network.pending_for(self.sid))

    def finalize(self) -> bool:
        """End of the finalize wait: lead unless a better notification is pending."""
        if not self.ready_to_lead() or self.better_pending():
            return False
        self._decide(LEADING)
        self.on_event("BecomeLeader", self.sid, None)
        return True

    def _decide(self, state: str) -> None:
        self.state = state
        self.electing = False

    def leader_lost(self) -> None:
        """A follower or leader lost its quorum/leader: back to LOOKING (clock is kept)."""
        self.state = LOOKING
        self.electing = False

    # -- observation -----------------------------------------------------------------------
    def observe(self) -> dict[str, Any]:
        def votes(vs: dict[int, Vote]) -> list[dict[str, Any]]:
            return [{"from": s, "leader": v.leader, "zxid": v.zxid, "epoch": v.election_epoch,
                     "state": v.state} for s, v in sorted(vs.items())]
        return {"state": self.state, "electing": self.electing, "logicalclock": self.logicalclock,
                "proposedLeader": self.proposed_leader, "proposedZxid": self.proposed_zxid,
                "zxid": self.last_logged_zxid, "recvset": votes(self.recvset),
                "outofelection": votes(self.outofelection)}
