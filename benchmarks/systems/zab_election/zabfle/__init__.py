"""zabfle: ZooKeeper-style fast leader election (a Python port of FastLeaderElection's core)."""

__all__ = ["FastLeaderElection", "Notification", "Vote", "Network", "LOOKING",
           "FOLLOWING", "LEADING"]

from .election import FOLLOWING, LEADING, LOOKING, FastLeaderElection, Notification, Vote
from .network import Network
