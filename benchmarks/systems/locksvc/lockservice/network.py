"""Message network: every message in flight may be delivered next (no per-link FIFO)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Message:
    type: str      # "lock" | "unlock" | "grant"
    src: str
    dst: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "from": self.src, "to": self.dst}


@dataclass
class Network:
    in_flight: list[Message] = field(default_factory=list)

    def send(self, msg: Message) -> None:
        self.in_flight.append(msg)

    def take(self, msg: Message) -> Message:
        self.in_flight.remove(msg)
        return msg

    def pending_for(self, node: str) -> list[Message]:
        return [m for m in self.in_flight if m.dst == node]
