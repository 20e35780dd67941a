"""lockservice: a lock server granting a single lock in FIFO order to clients over a network."""

__all__ = ["LockServer", "LockClient", "Message", "Network", "SERVER"]

from .client import LockClient
from .network import Message, Network
from .server import SERVER, LockServer
