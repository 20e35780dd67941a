"""Breadth-first search in several processes (``specula check --workers N``) with the results of
the single-process search: the same verdict, counts, depth and counterexample.

The checker searches the initial states itself, then forks N workers (the compiled model is
inherited, never sent) and gives each a share of the level (positions interleaved). Successors
never leave the worker that generated them; only 64-bit fingerprints travel. Each worker holds
the fingerprints of every state found so far (the seen set: 8 bytes of payload per state instead
of the state), expands its states of the level and keeps as candidates the successors whose
fingerprint it has not seen. At the end of the level the workers exchange their candidates'
fingerprints and places (``_Part._exchange``): a state found by several workers is the one found
at the smallest place; each worker keeps its new states (they are its share of the next level),
checks the invariants on them and reports to the checker, which sums the figures. A state's
fingerprint is built from codes of its values that no structure of the values makes meet
(``_Codes``; Python's ``hash(-1) == hash(-2)`` does not carry over), and
``CheckResult.fp_collision`` is TLC's optimistic estimate of a collision. The trace is rebuilt
from the workers' parents and actions by replay, comparing fingerprints (``_adopt``), as TLC does.

Every successor has a place in the single-process order: ``(pos, j)``, the position of its
parent in the level and its index among the parent's successors (``pos << 32 | j``). A state's
first discovery is its smallest place, which decides its parent (so the traces are the single
search's) and the next level's order (its rank among the level's places). Each event that ends
the single search — a violation, a deadlock, an evaluation error — gets its place too (with a
phase for what happens at one successor: generating it, the constraints, the invariants, the
action properties); the smallest one is the one the single search meets first, and the counts at
it (generated, distinct, queue, coverage) are summed from what each worker saw before it. The
``max_states`` limit is cut the same way; time and memory limits and Ctrl-C stop at once with
the figures of the last progress reports (the single search's figures there depend on timing
too). Whatever the parallel search cannot reproduce exactly (``obstacle``) is checked in one
process.
"""

from __future__ import annotations

import bisect
import ctypes
import gc
import multiprocessing
import os
import pickle
import queue
import re
import signal
import time
import traceback
from array import array
from itertools import chain
from operator import attrgetter
from pathlib import Path
from typing import Any

from specula.errors import EvalError, WorkerError
from specula.tla.compile.env import IMPURE_NATIVES
from specula.tla.memory import pss_bytes, rss_bytes
from specula.tla.outcome import Found, Stop
from specula.tla.symmetry import identity
from specula.tla.values import Fn, LazyFn, LazySet, ModelValue

__all__ = ["ParallelRun", "ParallelUnsupported", "obstacle", "default_workers"]

State = tuple
SHIFT = 32  # place = pos << SHIFT | j
LAST = (1 << SHIFT) - 1  # j of "after every successor" (a deadlock, the max_states cut)
# the checker searches in one process until a level has this many states (forking the workers
# and a barrier per level cost more than they save on small levels)
SPLIT_LEVEL = 1000
INTERLEAVE = 1  # positions of the first level given to each worker in turn
PROTO = pickle.HIGHEST_PROTOCOL
_TLA_DIR = Path(__file__).resolve().parent


class ParallelUnsupported(Exception):
    """The states of this model cannot be sent between processes (found during the search)."""


def default_workers() -> int:
    """All the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


_IMPURE = re.compile(r"\b(" + "|".join(sorted(IMPURE_NATIVES)) + r")\b")
_COMPOSE = re.compile(r"\\cdot\b")
_COMMENTS = re.compile(r"\(\*.*?\*\)|\\\*[^\n]*", re.S)


def obstacle(model: Any, plan: Any) -> str | None:
    """Why the parallel search could not give the single search's results for this model (None:
    it can): temporal properties need the state graph, which only the single search records;
    TLCGet/TLCSet, Trace, Print, RandomElement... depend on the order of the search."""
    if plan.temporal_props:
        return ("temporal properties (" + ", ".join(plan.temporal_props) + ") are checked on the state graph, "
                "which only the single-process search records")
    if "fork" not in multiprocessing.get_all_start_methods():
        return "this platform cannot fork worker processes"
    spec = getattr(model, "spec", None)
    for path, text in (getattr(spec, "sources", None) or {}).items():
        try:
            if Path(path).resolve().is_relative_to(_TLA_DIR):  # specula's own standard modules
                continue
        except (OSError, ValueError):
            pass
        code = _COMMENTS.sub(" ", text)
        m = _IMPURE.search(code)
        if m:
            return (f"{Path(path).name} uses {m.group(1)}, whose value or effect depends on the order of the "
                    "search")
        if _COMPOSE.search(code):
            return (f"{Path(path).name} composes actions (\\cdot), whose intermediate states only the "
                    "single-process search counts")
    return None


# ============================================================================ the worker side


class _Part:
    """One worker: its states of the current level and what it knows of the seen set.

    Successors never leave the worker that generated them; only their fingerprints travel.
    Each worker holds the fingerprints of every state found so far (the seen set), expands its
    states of the level and keeps, as candidates, the successors whose fingerprint it has not
    seen (the first place of each in its part of the level). At the end of the level the
    workers exchange their candidates' fingerprints and places (``_exchange``); the candidates
    this worker keeps are its new states, its share of the next level.

    Without a VIEW or SYMMETRY, each variable's values are pooled here (``pools``: value -> its
    code, a ``_Code`` that holds the pool's object): one lookup per variable interns a
    successor's value and gives its code, an unchanged variable's value is found by identity,
    and the code of a new value is computed once."""

    def __init__(self, w: int, n: int, search: Any, level: list[State], level_idx: list[int], boxes: tuple) -> None:
        self.w, self.n = w, n
        self.ppid = os.getppid()
        self.model = search.model
        self.plan = search.plan
        self.key = search.key
        self.ident = self.key is identity
        self.base = len(search.keys)  # gids below: the states the checker stored (its indices)
        self.inboxes, self.results, self.commands = boxes
        self.n_actions = len(search.coverage)
        self.fp = fp = _fingerprint(search)
        self.codes = fp.codes
        self.pools: list[dict] = [{} for _ in range(len(level[0]))]
        # every state found so far, by fingerprint (also the other workers')
        self.seen: set = set(map(fp, search.keys))
        self.fps = array("q")  # local index -> fingerprint of this worker's states
        self.parent = array("q")  # ... its parent's gid
        self.action = array("i")  # ... its action
        # the level's share: positions interleaved in runs of INTERLEAVE (the next levels stay
        # where their states were found; see _exchange for the states several workers found)
        mine = [i for i in range(len(level)) if (i // INTERLEAVE) % n == w]
        self.lv_states: list = [level[i] for i in mine]
        self.lv_pos = array("q", mine)
        self.lv_gid = array("q", [level_idx[i] for i in mine])
        self.progress_every = min(1.0, search.limits.progress_every)
        self._reset_level()

    def _reset_level(self) -> None:
        self.c_fp: list = []  # by candidate index: the fingerprint
        self.c_place: list[int] = []  # ... its place (increasing)
        self.c_act: list[int] = []  # ... its action
        self.c_pg: list[int] = []  # ... its parent's gid
        self.c_state: list = []  # ... the state
        self.c_parent: list = []  # ... the parent state (the invariants' step)
        self.ends = 0
        self.exp_pos: list[int] = []  # expanded parents' positions, in order
        self.exp_n: list[int] = []  # ... and their numbers of successors
        self.succ_act: list[int] = []  # the action of every successor generated, in order
        self.expanded = 0
        self.generated = 0
        self.event: tuple | None = None  # (pos, j, phase, info) of the first event seen here
        self.event_ci = -1  # ... the candidate whose invariants it is (-1: none)
        self.new: list = []  # (place, action) of this level's new states, by place

    def _pool_miss(self, st: State, got: tuple) -> tuple:
        """``got`` (the pools' codes for the values of ``st``) with the values new in their
        pools added, each with its code."""
        compute = self.codes.compute
        out = list(got)
        for c, e in enumerate(got):
            if e is None:
                v = st[c]
                e = out[c] = self.pools[c][v] = _Code(compute(v))
                e.obj = v
        return tuple(out)

    # ---- messages --------------------------------------------------------------------------
    def _put(self, q: Any, msg: tuple) -> None:
        try:
            data = pickle.dumps(msg, PROTO)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as exc:
            raise ParallelUnsupported(f"a state cannot be sent to another process ({exc})") from None
        q.put(data)

    def _alive_parent(self) -> None:
        if os.getppid() != self.ppid:  # the checker is gone
            os._exit(3)

    def _progress(self) -> None:
        self.results.put(pickle.dumps(("p", self.w, self.generated, self.expanded, len(self.c_fp)), PROTO))

    # ---- one level ---------------------------------------------------------------------------
    def expand(self) -> None:
        """Expand this worker's states of the level, keep the successors not seen as candidates,
        exchange the candidates' fingerprints with the other workers, keep the new states and
        check them, then report to the checker."""
        model, plan, key, ident = self.model, self.plan, self.key, self.ident
        constraints, acons = plan.constraints, plan.action_constraints
        invariants, aprops = plan.invariants, plan.action_props
        check_deadlock = plan.check_deadlock
        intern = getattr(model, "intern_state", identity)
        pkey = key if getattr(key, "takes_parent", False) else None
        in_constraints = bool(constraints or acons)
        con_steps = [(c, getattr(c, "step", None)) for _, c in constraints]
        inv_steps = [(name, inv, getattr(inv, "step", None)) for name, inv in invariants]
        inv_fresh = [(name, _fresh_check(inv)) for name, inv in invariants]
        fp = self.fp
        pools, pool_miss = self.pools, self._pool_miss
        seen = self.seen
        add = seen.add
        c_fp, c_place, c_act, c_pg = self.c_fp, self.c_place, self.c_act, self.c_pg
        c_state, c_parent = self.c_state, self.c_parent
        exp_pos, exp_n, succ_act = self.exp_pos, self.exp_n, self.succ_act
        states, lv_pos, lv_gid = self.lv_states, self.lv_pos, self.lv_gid
        next_tick = time.monotonic() + self.progress_every
        generated = 0
        cand = -1  # the candidate whose invariants are being checked
        for i in range(len(states)):
            st = states[i]
            states[i] = None
            pos = lv_pos[i]
            pg = lv_gid[i]
            base = pos << SHIFT
            j = 0
            phase = -1
            succ = None
            exp_pos.append(pos)
            try:
                for ai, succ in model.next_states(st):
                    phase = 0
                    succ_act.append(ai)
                    generated += 1
                    if in_constraints:
                        in_model = True
                        for c, c_step in con_steps:
                            if not (c(succ) if c_step is None else c_step(succ, st)):
                                in_model = False
                                break
                        if in_model:
                            for _, a in acons:
                                if not a(st, succ):
                                    in_model = False
                                    break
                    else:
                        in_model = True
                    if ident:
                        # each variable's pool: value -> its code (holding the pool's object);
                        # one lookup interns the value and gives its code. The pools hold values of
                        # states the invariants held for (or of the violation that ends this
                        # worker's level): the invariants' fresh(succ, parent, raw) checks only
                        # the values new to them
                        pc = tuple(map(dict.get, pools, succ))
                        if None in pc:
                            pc = pool_miss(succ, pc)
                        if in_model:
                            f = hash(pc)
                            if f not in seen:
                                raw = succ
                                succ = tuple(map(_obj, pc))
                                add(f)
                                cand = len(c_fp)
                                c_fp.append(f)
                                c_place.append(base | j)
                                c_act.append(ai)
                                c_pg.append(pg)
                                c_state.append(succ)
                                # checked here, at this worker's place: a state another worker
                                # found at a smaller place fails there too (_finish)
                                phase = 1
                                for name, chk in inv_fresh:
                                    if not chk(succ, st, raw):
                                        raise _Event(j, 1, ("invariant", f"Invariant {name} is violated.", name, -1,
                                                            []))
                                cand = -1
                        else:
                            phase = 1  # not stored: checked at every discovery, here
                            raw = succ
                            succ = tuple(map(_obj, pc))
                            for name, chk in inv_fresh:
                                if not chk(succ, st, raw):
                                    raise _Event(j, 1, ("invariant", f"Invariant {name} is violated.", name, pg,
                                                        [(ai, succ)], None))
                    elif in_model:
                        succ = intern(succ)
                        f = fp(key(succ) if pkey is None else pkey(succ, st))
                        if f not in seen:
                            add(f)
                            c_fp.append(f)
                            c_place.append(base | j)
                            c_act.append(ai)
                            c_pg.append(pg)
                            c_state.append(succ)
                            c_parent.append(st)
                    else:
                        phase = 1  # not stored: checked at every discovery, here
                        for name, inv, i_step in inv_steps:
                            if not (inv(succ) if i_step is None else i_step(succ, st)):
                                raise _Event(j, 1, ("invariant", f"Invariant {name} is violated.", name, pg,
                                                    [(ai, succ)], None))
                    phase = 2
                    for name, ap in aprops:
                        if not ap(st, succ):
                            raise _Event(j, 2, ("action-property", f"Action property {name} is violated.", name,
                                                pg, [(ai, succ)], None))
                    j += 1
                    phase = -1
            except _Event as ev:
                exp_n.append(j + 1)
                self.event = (pos, ev.j, ev.phase, ev.info)
                self.event_ci = cand if ev.phase == 1 else -1
            except EvalError as exc:
                exp_n.append(j + (phase >= 0))
                bad = exc.state if isinstance(exc.state, tuple) else None
                extra = [] if bad is None or bad is st else [(-1, bad)]
                self.event = (pos, j, phase, ("error", str(exc), None, pg, extra, exc.span))
                self.event_ci = cand if phase == 1 else -1
            else:
                exp_n.append(j)
                if j == 0 and check_deadlock:
                    self.event = (pos, 0, 3, ("deadlock", "Deadlock reached.", None, pg, []))
            self.expanded += 1
            self.generated = generated
            if self.event is not None:
                break  # everything after it is after the single search's stop
            if i & 63 == 0:
                if i & 16383 == 0:
                    gc.freeze()  # (as the single search: the candidates and the seen set hold no garbage)
                now = time.monotonic()
                if now >= next_tick:
                    next_tick = now + self.progress_every
                    self._progress()
                    self._alive_parent()
        self.generated = generated
        self.lv_states = []
        self._exchange()
        self._finish()

    def _exchange(self) -> None:
        """Send every other worker this level's candidates (fingerprints, places, parents,
        actions), receive theirs. A state several workers found is the single search's at the
        smallest place (its parent and action); it stays with that worker, or, when a state is
        its own key (no VIEW, no SYMMETRY: every finder holds the same state), with one of its
        finders (``_holders``), so that the workers' shares of the next level stay even. The
        candidates this worker does not keep are ``self.lost``; the ones it keeps for another
        worker's place take that place, parent and action."""
        n, w = self.n, self.w
        c_fp, c_place, c_pg, c_act = self.c_fp, self.c_place, self.c_pg, self.c_act
        if n > 1:
            data = pickle.dumps(("c", w, array("q", c_fp).tobytes(), array("q", c_place).tobytes(),
                                 array("q", c_pg).tobytes(), array("i", c_act).tobytes()), PROTO)
            for o in range(n):
                if o != w:
                    self.inboxes[o].put(data)
        seen = self.seen
        received = self._receive()
        # the other workers' candidates are new states (not in an earlier level): those in the
        # seen set are this worker's candidates too (found here and there)
        commons = [seen.intersection(ofp) for _, ofp, *_ in received]
        for _, ofp, *_ in received:
            seen.update(ofp)
        found = set().union(*commons)
        mine = {f: ci for ci, f in enumerate(c_fp) if f in found} if found else {}
        both: dict = {}  # fingerprint -> [place, parent, action, winner, finders] of a state found here and elsewhere
        for (src, ofp, opl, opg, oact), common in zip(received, commons):
            if not common:
                continue
            for i, f in enumerate(ofp):
                if f not in common:
                    continue
                rec = both.get(f)
                if rec is None:
                    ci = mine[f]
                    rec = both[f] = [c_place[ci], c_pg[ci], c_act[ci], w, [w]]
                rec[4].append(src)
                if opl[i] < rec[0]:
                    rec[0], rec[1], rec[2], rec[3] = opl[i], opg[i], oact[i], src
        holders = self._holders(both, len(c_fp), [len(r[1]) for r in received])
        lost: set = set()
        moved = False
        for f, (place, pg, ai, winner, _) in both.items():
            if holders[f] != w:
                lost.add(f)
            elif winner != w:
                ci = mine[f]
                c_place[ci], c_pg[ci], c_act[ci] = place, pg, ai
                moved = True
        self.lost = lost
        self.moved = moved

    def _receive(self) -> list[tuple]:
        """The other workers' candidates of this level: (worker, fingerprints, places, parents,
        actions) each."""
        inbox = self.inboxes[self.w]
        out = []
        while len(out) < self.n - 1:
            try:
                raw = inbox.get(timeout=1.0)
            except queue.Empty:
                self._alive_parent()
                continue
            _, src, *parts = pickle.loads(raw)
            arrays = [array(t) for t in "qqqi"]
            for a, b in zip(arrays, parts):
                a.frombytes(b)
            out.append((src, *arrays))
        return out

    def _holders(self, both: dict, n_mine: int, n_others: list[int]) -> dict:
        """Which worker keeps each state several workers found (``both``). With a VIEW or
        SYMMETRY the one that found it first (the finders' states may differ). Otherwise any of
        its finders: with two workers the shared states even out the two shares of the next
        level (each worker computes the same split: the worker with fewer states of its own
        takes the difference from the shared ones, in the order of their fingerprints, and the
        rest is halved); with more, one of its finders chosen by its fingerprint."""
        if not self.ident:
            return {f: rec[3] for f, rec in both.items()}
        if self.n != 2:
            return {f: sorted(rec[4])[(f >> 24) % len(rec[4])] for f, rec in both.items()}
        shared = sorted(both)
        own = [n_mine - len(shared), n_others[0] - len(shared)]  # this worker's, the other's
        if self.w == 1:
            own.reverse()
        total = own[0] + own[1] + len(shared)
        first = min(len(shared), max(0, total // 2 - own[0]))  # worker 0's share of the shared
        return dict(chain(zip(shared[:first], [0] * first), zip(shared[first:], [1] * (len(shared) - first))))

    def _finish(self) -> None:
        """Keep this level's new states (in the single search's order), check the invariants on
        them up to the first violation unless ``expand`` did (with the pools), and report to the
        checker."""
        fps, parent, action = self.fps, self.parent, self.action
        n, w = self.n, self.w
        lost = self.lost
        order: Any = range(len(self.c_fp))
        if self.moved:  # (a state kept for another worker's place: the places are out of order)
            order = sorted(order, key=self.c_place.__getitem__)
        c_fp, c_place, c_act, c_pg, c_state = self.c_fp, self.c_place, self.c_act, self.c_pg, self.c_state
        kept = [ci for ci in order if c_fp[ci] not in lost]
        first = self.base + len(fps) * n + w
        gids = array("q", range(first, first + len(kept) * n, n))
        places = array("q", map(c_place.__getitem__, kept))
        acts = list(map(c_act.__getitem__, kept))
        fps.extend(map(c_fp.__getitem__, kept))
        parent.extend(map(c_pg.__getitem__, kept))
        action.extend(acts)
        self.new.extend(zip(places, acts))
        if self.ident:
            self.event = self._placed_event(kept, gids)
        else:
            self.event = self._check_kept(kept, gids)
        self.lv_states, self.lv_gid = list(map(c_state.__getitem__, kept)), gids
        self.c_state = self.c_parent = []
        gc.freeze()
        self.new_places = places
        cov_gen = [0] * self.n_actions
        for a in self.succ_act:
            cov_gen[a] += 1
        cov_new = [0] * self.n_actions
        for _, a in self.new:
            cov_new[a] += 1
        self._put(self.results, ("level", w, len(kept), self.event, self.generated, cov_gen, cov_new,
                                 places.tobytes()))

    def _placed_event(self, kept: list[int], gids: array) -> tuple | None:
        """This worker's event once the candidates are shared out (``expand`` checked the
        invariants on each candidate as it found it): a violation or an error of the invariants
        on a candidate takes the candidate's place, parent and number; on a candidate another
        worker keeps, it is that worker's to report (the same state, which failed there too,
        at its place there, and the smaller place of the two is the state's)."""
        ci, event = self.event_ci, self.event
        if ci < 0 or event is None:
            return event
        if self.c_fp[ci] in self.lost:
            return None
        place = self.c_place[ci]
        info = event[3]
        if info[0] == "invariant":
            info = info[:3] + (gids[kept.index(ci)],) + info[4:]
        else:  # an evaluation error: the trace ends at the parent
            info = info[:3] + (self.c_pg[ci],) + info[4:]
        return (place >> SHIFT, place & LAST, 1, info)

    def _check_kept(self, kept: list[int], gids: array) -> tuple | None:
        """The first violation of the invariants on the kept states (with a VIEW or SYMMETRY the
        state kept is the one found at the smallest place, which another worker's candidate of
        the same key may not be), or the event ``expand`` met if it comes first."""
        invariants = [(name, inv, getattr(inv, "step", None)) for name, inv in self.plan.invariants]
        event = self.event
        c_place, c_state, c_parent, c_pg = self.c_place, self.c_state, self.c_parent, self.c_pg
        for ci, gid in zip(kept, gids):
            place = c_place[ci]
            if event is not None and (place >> SHIFT, place & LAST, 1) >= event[:3]:
                break
            succ, st = c_state[ci], c_parent[ci]
            try:
                for name, inv, i_step in invariants:
                    if not (inv(succ) if i_step is None else i_step(succ, st)):
                        return (place >> SHIFT, place & LAST, 1,
                                ("invariant", f"Invariant {name} is violated.", name, gid, []))
            except EvalError as exc:
                bad = exc.state if isinstance(exc.state, tuple) else None
                return (place >> SHIFT, place & LAST, 1,
                        ("error", str(exc), None, c_pg[ci], [] if bad is None else [(-1, bad)], exc.span))
        return event

    def advance(self, all_places: list[bytes]) -> None:
        """The next level's positions: the rank of each new state's place among every worker's."""
        mine = self.new_places
        ranks = array("q", range(len(mine)))
        for o, raw in enumerate(all_places):
            if o == self.w or not raw:
                continue
            other = array("q")
            other.frombytes(raw)
            lo = 0
            bl = bisect.bisect_left
            for i, p in enumerate(mine):
                lo = bl(other, p, lo)
                ranks[i] += lo
        self.lv_pos = ranks
        self._reset_level()

    def upto(self, pos: int, j: int, phase: int) -> tuple:
        """What the single search had counted in this level when it met the event at
        (pos, j, phase), from this worker's part: successors generated (and per action), new
        states kept (and per action)."""
        cov_gen = [0] * self.n_actions
        gen = 0
        si = 0
        acts = self.succ_act
        for p, ns in zip(self.exp_pos, self.exp_n):
            if p > pos:
                break
            take = ns if p < pos else min(ns, j + (phase >= 0))
            for a in acts[si:si + take]:
                cov_gen[a] += 1
            gen += take
            si += ns
        limit = pos << SHIFT | j
        cov_new = [0] * self.n_actions
        count = at = 0
        for place, a in self.new:
            if place < limit or (place == limit and phase >= 1):
                cov_new[a] += 1
                count += 1
                at += place == limit
        return gen, cov_gen, count, cov_new, at

    def serve(self) -> bool:
        """Answer the checker until it says what to do next: False to stop."""
        while True:
            try:
                data = self.commands[self.w].get(timeout=1.0)
            except queue.Empty:
                self._alive_parent()
                continue
            cmd = pickle.loads(data)
            if cmd[0] == "next":
                self.advance(cmd[1])
                return True
            if cmd[0] == "stop":
                return False
            if cmd[0] == "upto":
                self._put(self.results, ("upto", self.w, self.upto(*cmd[1])))
            elif cmd[0] == "node":
                local = cmd[1]
                self._put(self.results, ("node", self.w, self.fps[local], self.parent[local], self.action[local]))


_M61 = (1 << 61) - 1


class _Code(int):
    """A value's code in a worker's pool, holding the pool's object of the value (``obj``): the
    codes of a successor's values are the tuple the state's fingerprint hashes (an int's hash
    is itself below 2**61 - 1), with no tuple of codes built per successor."""


_obj = attrgetter("obj")


class _Codes:
    """A 61-bit code per value, the same in every process, equal for values Python finds equal
    (the single search's seen set compares states with ``==``; ``TRUE`` and ``1`` are one value
    there and here) and otherwise as good as random: the SipHash (Python's hash of bytes, keyed
    alike in the checker and its forked workers) of a canonical encoding of the value: an
    integer's, a string's or a model value's text, a sequence's codes in order, a set's codes
    sorted, a function's (key code, value code) pairs sorted. No structure of the values
    (``hash(-1) == hash(-2)``, integers equal modulo 2**61 - 1, XORs or sums of items) makes two
    codes meet. Codes are remembered by value: a value met again (the rows of a new function)
    costs a lookup."""

    def __init__(self) -> None:
        self.memo: dict = {}

    def code(self, v: Any) -> int:
        c = self.memo.get(v)
        if c is None:
            c = self.memo[v] = self.compute(v)
        return c

    def compute(self, v: Any) -> int:
        """The code of ``v``, not remembered (its parts' are)."""
        cls = v.__class__
        code, cget = self.code, self.memo.get
        if cls is Fn:
            ks = tuple(map(cget, dict.keys(v)))
            if None in ks:
                ks = tuple(map(code, dict.keys(v)))
            vs = tuple(map(cget, dict.values(v)))
            if None in vs:
                vs = tuple(map(code, dict.values(v)))
            data = b"d" + array("Q", chain.from_iterable(sorted(zip(ks, vs)))).tobytes()
        elif cls is tuple:
            cs = tuple(map(cget, v))
            if None in cs:
                cs = tuple(map(code, v))
            data = b"t" + array("Q", cs).tobytes()
        elif cls is frozenset:
            data = b"f" + array("Q", sorted(map(code, v))).tobytes()
        else:
            if cls is bool:
                v, cls = int(v), int  # (True == 1, as in the single search)
            if cls is int:
                data = b"i" + str(v).encode()
            elif cls is str:
                data = b"s" + v.encode("utf-8", "surrogatepass")
            elif cls is ModelValue:
                data = b"m" + v[1].encode("utf-8", "surrogatepass")
            elif isinstance(v, (LazySet, LazyFn)) and getattr(v, "finite", True):
                return self.code(v.materialize())
            else:
                raise ParallelUnsupported(f"a state holds a value the fingerprints do not know ({cls.__name__})")
        return hash(data) % _M61


def _fingerprint(search: Any) -> Any:
    """The 64-bit fingerprint of a state's key, the same function in every process: the hash of
    the tuple of its values' codes (``_Codes``; each below 2**61 - 1, so that Python hashes a
    code as itself, and the tuple's hash, rounds of xxHash64 over them, separates two keys that
    differ in one value always and otherwise like a random 64-bit function), or a key that is
    not a tuple (a VIEW's value) by its code."""
    codes = _Codes()
    code, cget = codes.code, codes.memo.get

    def fp(k: Any) -> int:
        if k.__class__ is tuple:
            cs = tuple(map(cget, k))
            if None in cs:
                cs = tuple(map(code, k))
            return hash(cs)
        return code(k) ^ 0x5A5A5A5A5A5A5A5A

    fp.codes = codes  # type: ignore[attr-defined]
    return fp


def _fresh_check(inv: Any) -> Any:
    """``check(succ, parent, raw)`` of one invariant: its ``fresh`` (the pools hold values of
    states it held for), else its ``step``, else the predicate whole."""
    fresh = getattr(inv, "fresh", None)
    if fresh is not None:
        return fresh
    step = getattr(inv, "step", None)
    if step is not None:
        return lambda succ, parent, raw: step(succ, parent)
    return lambda succ, parent, raw: inv(succ)


class _Event(Exception):
    def __init__(self, j: int, phase: int, info: tuple) -> None:
        self.j, self.phase, self.info = j, phase, info


def _worker_main(w: int, n: int, search: Any, level: list[State], level_idx: list[int], boxes: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the checker stops the workers (SIGKILL)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:  # die with the checker, whatever kills it
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    results = boxes[1]
    # the inherited heap is the checker's: the collector never walks it here (walking it would
    # write to every page of it and copy them all into this process)
    gc.freeze()
    try:
        part = _Part(w, n, search, level, level_idx, boxes)
        while True:
            part.expand()
            if not part.serve():
                break
    except ParallelUnsupported as exc:
        results.put(pickle.dumps(("unsupported", w, str(exc)), PROTO))
    except BaseException:
        results.put(pickle.dumps(("crash", w, traceback.format_exc(limit=8)), PROTO))
    results.close()
    results.join_thread()


# ============================================================================ the checker side


class ParallelRun:
    """Runs the levels after the initial states of a checker ``_Search`` in ``workers``
    processes, and leaves in it what the single search would have left (counts, coverage,
    depth, the trace's states) or raises what it would have raised (``Found``, ``Stop``)."""

    def __init__(self, workers: int) -> None:
        self.n = workers
        self.procs: list = []
        self.boxes: tuple = ()
        self.last: dict[int, tuple] = {}  # worker -> its last progress (generated, expanded, new)
        self.started = False  # the workers searched (the checker handed a level over)

    @staticmethod
    def collision_estimate(distinct: int, generated: int) -> float:
        """TLC's optimistic estimate of the probability that two distinct states had the same
        64-bit fingerprint: distinct * (generated - distinct) / 2**64 (the checker's own levels,
        compared exactly, are counted too, as an upper bound)."""
        return distinct * max(0, generated - distinct) / 2.0**64

    def takes(self, level: list[State]) -> bool:
        """Whether the workers search from this level on (it is large enough)."""
        return len(level) >= SPLIT_LEVEL

    def run(self, search: Any, level: list[State], level_idx: list[int]) -> None:
        ctx = multiprocessing.get_context("fork")
        n = self.n
        inboxes = [ctx.Queue() for _ in range(n)]
        commands = [ctx.Queue() for _ in range(n)]
        results = ctx.Queue()
        self.boxes = (inboxes, results, commands)
        self.search = search
        self.generated = search.generated
        self.distinct = search.distinct
        self.cov_gen = [c.generated for c in search.coverage]
        self.cov_new = [c.distinct for c in search.coverage]
        self.base = len(search.keys)
        self.n_level = len(level)
        limits = search.limits
        self.deadline = None if limits.max_seconds is None else search.t0 + limits.max_seconds
        self.memory_due = 0.0
        self.next_tick = time.monotonic() + limits.progress_every
        if limits.max_depth is not None and search.depth >= limits.max_depth:
            search.depth_cut = True
            search.queue_left = len(level)
            return
        self.started = True
        try:
            for w in range(n):
                p = ctx.Process(target=_worker_main, args=(w, n, search, level, level_idx, self.boxes), daemon=True,
                                name=f"specula-worker-{w}")
                p.start()
                self.procs.append(p)
            del level, level_idx
            self._levels()
        except KeyboardInterrupt:
            self._partial()
            raise
        except Stop:
            raise
        finally:
            self._shutdown()

    # ---- the levels ----------------------------------------------------------------------------
    def _levels(self) -> None:
        search, n = self.search, self.n
        max_depth = search.limits.max_depth
        max_states = search.limits.max_states
        while True:
            self.last = {}
            reports = self._gather("level")
            events = [r[3] for r in reports.values() if r[3] is not None]
            total_new = sum(r[2] for r in reports.values())
            places = [reports[w][7] for w in range(n)]
            cut = None
            if max_states is not None and self.distinct + total_new >= max_states:
                merged = sorted(p for raw in places for p in _places(raw))
                cut = merged[max_states - self.distinct - 1] >> SHIFT  # the parent after which it stops
            if events:
                ev = min(events, key=lambda e: (e[0], e[1], e[2]))
                if cut is None or ev[0] <= cut:
                    self._found(ev)
            if cut is not None:
                self._upto((cut, LAST, 3))
                raise Stop("max_states")
            for r in reports.values():
                for a, (g, d) in enumerate(zip(r[5], r[6])):
                    self.cov_gen[a] += g
                    self.cov_new[a] += d
                self.generated += r[4]
            self.distinct += total_new
            self.n_level = total_new
            if total_new:
                search.depth += 1
            self._sync(total_new, None)
            if not total_new:
                self._command(("stop",))
                search._progress(0)
                return
            if max_depth is not None and search.depth >= max_depth:
                search.depth_cut = True
                self._command(("stop",))
                return
            self._command(("next", places))

    def _found(self, ev: tuple) -> None:
        pos, j, phase, info = ev
        included_new, at_place = self._upto((pos, j, phase))
        verdict, message, violated, at, extra = info[:5]
        span = info[5] if len(info) > 5 else None
        if phase == 1:
            # TLC's queue: a state whose invariants fail (or cannot be evaluated) is checked
            # before it is enqueued (at_place: a new state at the event's place)
            included_new -= at_place
        self.search.queue_left = self.n_level - pos - 1 + included_new
        idx = self._adopt(at)
        raise Found(verdict, message, violated, idx, extra, span)

    def _upto(self, place: tuple) -> int:
        """Set the search's figures to those of the single search at ``place``; returns the
        number of new states of this level it had found by then, and of those at ``place``
        itself (0 or 1)."""
        self._command(("upto", place))
        got = self._gather("upto")
        gen = sum(r[2][0] for r in got.values())
        new = sum(r[2][2] for r in got.values())
        at_place = sum(r[2][4] for r in got.values())
        for r in got.values():
            for a, (g, d) in enumerate(zip(r[2][1], r[2][3])):
                self.cov_gen[a] += g
                self.cov_new[a] += d
        self.generated += gen
        self.distinct += new
        self._sync(self.n_level - place[0] - 1 + new, new)
        return new, at_place

    def _adopt(self, gid: int) -> int:
        """Copy the path to ``gid`` into the search (its keys, parents and actions), so that its
        ``trace`` replays it; returns the search's index of ``gid``. The workers hold each
        state's fingerprint, parent and action: the keys are found again by replay from the
        checker's last stored state on the path, as TLC rebuilds a trace."""
        search, n, base = self.search, self.n, self.base
        chain = []
        g = gid
        while g >= base:
            w, local = (g - base) % n, (g - base) // n
            self.boxes[2][w].put(pickle.dumps(("node", local), PROTO))
            got = self._gather("node", only=w)
            _, _, f, parent, action = got[w]
            chain.append((f, action))
            g = parent
        idx = g
        if not chain:
            return idx
        fp = _fingerprint(search)
        key, model = search.key, search.model
        cur = search.keys[idx] if key is identity else search.path_states(idx)[-1]
        for f, action in reversed(chain):
            for ai, succ in model.next_states(cur):
                if ai == action:
                    k = key(succ)
                    if fp(k) == f:
                        break
            else:  # cannot happen unless the model is nondeterministic
                raise WorkerError("the counterexample could not be rebuilt from the fingerprints")
            cur = succ
            search.keys.append(k)
            search.parent.append(idx)
            search.action.append(action)
            idx = len(search.keys) - 1
        return idx

    def _sync(self, queue_left: int, next_new: int | None) -> None:
        s = self.search
        s.generated, s.distinct, s.queue_left = self.generated, self.distinct, queue_left
        s._next = [None] if next_new else None  # a level being generated counts in the depth
        for c, g, d in zip(s.coverage, self.cov_gen, self.cov_new):
            c.generated, c.distinct = g, d

    def _partial(self) -> None:
        """Figures so far from the workers' last progress reports (a time or memory limit, Ctrl-C)."""
        gen = sum(v[0] for v in self.last.values())
        expanded = sum(v[1] for v in self.last.values())
        new = sum(v[2] for v in self.last.values())
        self.generated += gen
        self.distinct += new
        self._sync(max(0, self.n_level - expanded) + new, new)

    # ---- messages ----------------------------------------------------------------------------
    def _command(self, cmd: tuple) -> None:
        data = pickle.dumps(cmd, PROTO)
        for q in self.boxes[2]:
            q.put(data)

    def _gather(self, kind: str, only: int | None = None) -> dict[int, tuple]:
        """Wait for one ``kind`` message from every worker (or from ``only``), checking the
        limits and the workers' health meanwhile."""
        results = self.boxes[1]
        want = {only} if only is not None else set(range(self.n))
        got: dict[int, tuple] = {}
        while len(got) < len(want):
            self._limits()
            try:
                data = results.get(timeout=0.1)
            except queue.Empty:
                self._health()
                continue
            msg = pickle.loads(data)
            if msg[0] == "p":
                self.last[msg[1]] = msg[2:]
            elif msg[0] == "crash":
                raise WorkerError(f"worker {msg[1]} of the search failed:\n{msg[2]}")
            elif msg[0] == "unsupported":
                raise ParallelUnsupported(msg[2])
            elif msg[0] == kind and msg[1] in want:
                got[msg[1]] = msg
        return got

    def _limits(self) -> None:
        now = time.monotonic()
        if self.deadline is not None and now >= self.deadline:
            self._partial()
            raise Stop("max_seconds")
        s = self.search
        max_memory = s.limits.max_memory
        if max_memory is not None and now >= self.memory_due:
            self.memory_due = now + 0.25
            if self._memory_reached(max_memory):
                self._partial()
                raise Stop("max_memory")
        if now >= self.next_tick:
            self.next_tick = now + s.limits.progress_every
            gen = sum(v[0] for v in self.last.values())
            expanded = sum(v[1] for v in self.last.values())
            new = sum(v[2] for v in self.last.values())
            if s.on_progress is not None:
                saved = s.generated, s.distinct
                s.generated, s.distinct = self.generated + gen, self.distinct + new
                s._progress(max(0, self.n_level - expanded) + new)
                s.generated, s.distinct = saved

    def _memory_reached(self, max_memory: int) -> bool:
        """Whether the processes' proportional set sizes add up to ``max_memory``. Their
        resident sizes (read in O(1)) are an upper bound, looked at first: the kernel walks a
        process's page tables to give its proportional size, holding its memory map's lock (a
        worker faulting a page in waits), which four times a second on three processes cost
        the checker 5 % of a core."""
        pids = [os.getpid(), *(p.pid for p in self.procs)]
        if sum(map(rss_bytes, pids)) < max_memory:
            return False
        return sum(map(pss_bytes, pids)) >= max_memory

    def _health(self) -> None:
        for w, p in enumerate(self.procs):
            code = p.exitcode
            if code is not None:
                how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
                raise WorkerError(f"worker {w} of the search stopped unexpectedly ({how})")

    def _shutdown(self) -> None:
        for p in self.procs:
            if p.exitcode is None:
                p.kill()
        for p in self.procs:
            p.join(2.0)
        inboxes, results, commands = self.boxes or ([], None, [])
        for q in [*inboxes, *commands, *([results] if results is not None else [])]:
            q.cancel_join_thread()
            q.close()
        self.procs = []


def _places(raw: bytes) -> array:
    a = array("q")
    a.frombytes(raw)
    return a
