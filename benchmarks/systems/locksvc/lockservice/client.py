"""A lock client: request, wait for the grant, run the critical section, unlock."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .network import Message, Network
from .server import SERVER

IDLE, WAITING, CRITICAL = "idle", "waiting", "cs"


class LockClient:
    def __init__(self, cid: str, network: Network,
                 on_event: Callable[[str, str, dict[str, Any] | None], None] | None = None) -> None:
        self.cid = cid
        self.network = network
        self.pc = IDLE
        self.rounds = 0
        self.on_event = on_event or (lambda action, actor, msg: None)

    def request(self) -> None:
        assert self.pc == IDLE
        self.network.send(Message("lock", self.cid, SERVER))
        self.pc = WAITING
        self.on_event("ClientLockRequest", self.cid, None)

    def granted(self) -> Message | None:
        return next((m for m in self.network.pending_for(self.cid) if m.type == "grant"), None)

    def enter(self, grant: Message) -> None:
        """Receive the grant and enter the critical section."""
        assert self.pc == WAITING and grant.type == "grant"
        self.network.take(grant)
        self.pc = CRITICAL
        self.on_event("ClientCriticalSection", self.cid, grant.to_json())

    def release(self) -> None:
        assert self.pc == CRITICAL
        self.network.send(Message("unlock", self.cid, SERVER))
        self.pc = IDLE
        self.rounds += 1
        self.on_event("ClientUnlockRequest", self.cid, None)
