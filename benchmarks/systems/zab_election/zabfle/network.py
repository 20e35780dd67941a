"""The message network between election peers.

Messages in flight are kept in send order; the scheduler may deliver any of them (reordering).
An identical notification already in flight on the same link is coalesced with the new one (the
connection layer drops a frame equal to one still queued), so the in-flight view is a set.
Messages to a crashed peer are dropped when it crashes (its connections are torn down).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

M = TypeVar("M")


@dataclass
class Network(Generic[M]):
    in_flight: list[M] = field(default_factory=list)

    def send(self, msg: M) -> None:
        if msg not in self.in_flight:
            self.in_flight.append(msg)

    def take(self, msg: M) -> M:
        self.in_flight.remove(msg)
        return msg

    def pending_for(self, node: int) -> list[M]:
        return [m for m in self.in_flight if m.to == node]  # type: ignore[attr-defined]

    def drop_to(self, node: int) -> list[M]:
        dropped = self.pending_for(node)
        self.in_flight = [m for m in self.in_flight if m not in dropped]
        return dropped
