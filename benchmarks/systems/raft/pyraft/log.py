"""The replicated log (etcd raftLog without storage/unstable split): 1-based indexes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Entry:
    term: int
    index: int
    data: str = ""


@dataclass
class RaftLog:
    entries: list[Entry] = field(default_factory=list)
    committed: int = 0

    def last_index(self) -> int:
        return len(self.entries)

    def last_term(self) -> int:
        return self.entries[-1].term if self.entries else 0

    def term(self, i: int) -> int:
        if i == 0 or i > len(self.entries):
            return 0
        return self.entries[i - 1].term

    def match_term(self, i: int, term: int) -> bool:
        return i <= self.last_index() and self.term(i) == term

    def is_up_to_date(self, lasti: int, term: int) -> bool:
        """Is a candidate's log (last index, last term) at least as up to date as ours?"""
        return term > self.last_term() or (term == self.last_term() and lasti >= self.last_index())

    def slice_from(self, i: int) -> list[Entry]:
        return list(self.entries[i - 1:])

    def find_conflict(self, ents: list[Entry]) -> int:
        """Index of the first entry whose term differs from ours (or that we lack); 0 if none."""
        for e in ents:
            if not self.match_term(e.index, e.term):
                return e.index
        return 0

    def append(self, ents: list[Entry]) -> int:
        if ents:
            after = ents[0].index - 1
            if after < self.committed:
                raise AssertionError(f"after({after}) is out of range [committed({self.committed})]")
            self.entries = self.entries[:after] + list(ents)
        return self.last_index()

    def maybe_append(self, index: int, log_term: int, committed: int,
                     ents: list[Entry]) -> tuple[int, bool]:
        if not self.match_term(index, log_term):
            return 0, False
        lastnewi = index + len(ents)
        ci = self.find_conflict(ents)
        if ci:
            if ci <= self.committed:
                raise AssertionError(f"entry {ci} conflict with committed entry [committed({self.committed})]")
            self.append(ents[ci - (index + 1):])
        self.commit_to(min(committed, lastnewi))
        return lastnewi, True

    def commit_to(self, tocommit: int) -> None:
        if self.committed < tocommit:       # never decrease commit
            if self.last_index() < tocommit:
                raise AssertionError(f"tocommit({tocommit}) is out of range [lastIndex({self.last_index()})]")
            self.committed = tocommit

    def maybe_commit(self, max_index: int, term: int) -> bool:
        """Commit up to max_index only if that entry is from the leader's current term."""
        if max_index > self.committed and self.term(max_index) == term:
            self.commit_to(max_index)
            return True
        return False
