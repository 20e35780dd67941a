"""The lock server: one lock, a FIFO queue of clients; the head of the queue holds the lock."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from .network import Message, Network

SERVER = "server"


class LockServer:
    def __init__(self, network: Network,
                 on_event: Callable[[str, str, dict[str, Any] | None], None] | None = None) -> None:
        self.network = network
        self.queue: deque[str] = deque()
        self.on_event = on_event or (lambda action, actor, msg: None)

    def handle(self, msg: Message) -> None:
        """Serve one request from the inbox (any pending request; the network reorders)."""
        self.network.take(msg)
        if msg.type == "lock":
            self.queue.append(msg.src)
            if len(self.queue) == 1:            # the lock was free: grant at once
                self.network.send(Message("grant", SERVER, msg.src))
        elif msg.type == "unlock":
            self.queue.popleft()                 # the holder is always the head
            if self.queue:                       # hand the lock to the next waiter
                self.network.send(Message("grant", SERVER, self.queue[0]))
        else:
            raise ValueError(f"server cannot handle {msg.type!r}")
        self.on_event("ServerGrantLock", SERVER, msg.to_json())
