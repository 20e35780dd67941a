"""pyraft: Raft as a state machine stepped by messages and ticks, in the shape of etcd's raft.go."""

__all__ = ["Raft", "Message", "Entry", "RaftLog", "Progress", "NONE", "StateFollower",
           "StatePreCandidate", "StateCandidate", "StateLeader"]

from .log import Entry, RaftLog
from .raft import (NONE, Message, Progress, Raft, StateCandidate, StateFollower, StateLeader,
                   StatePreCandidate)
