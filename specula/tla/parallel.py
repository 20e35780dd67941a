"""Breadth-first search in several processes (``specula check --workers N``) with the results of
the single-process search: the same verdict, counts, depth and counterexample.

The checker searches the initial states itself, then forks N workers (the compiled model is
inherited, never sent). Each worker owns the states whose key's values hash to it (the sum of
per-value hashes, ``% N``, carried by the values' numbers; see ``_Part``) and keeps their part
of the seen set (and marks the other workers' states it sent: each is sent once in the
search). The search is level-synchronous: each worker expands its states of the level, routes
every successor to its owner (as numbers of its values, in batches), and the owners keep the new
states and check the invariants on them.

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
from pathlib import Path
from typing import Any

from specula.errors import EvalError, WorkerError
from specula.tla.compile.env import IMPURE_NATIVES
from specula.tla.memory import pss_bytes
from specula.tla.outcome import Found, Stop
from specula.tla.symmetry import identity
from specula.tla.values import Fn, fn_of_items

__all__ = ["ParallelRun", "ParallelUnsupported", "obstacle", "default_workers"]

State = tuple
SHIFT = 32  # place = pos << SHIFT | j
LAST = (1 << SHIFT) - 1  # j of "after every successor" (a deadlock, the max_states cut)
CHUNK = 512  # successors per batch sent to an owner
# the checker searches in one process until a level has this many states (forking the workers
# and a barrier per level cost more than they save on small levels)
SPLIT_LEVEL = 1000
PROTO = pickle.HIGHEST_PROTOCOL
# the seen set's mark of a key owned by another worker that this worker sent it (its owner has it
# since; this worker's own keys map to a gid, or to ~index of this level's candidates)
SENT = -(1 << 62)
_NONE = object()  # value 0 of every column: the key columns of a key that is not numbered
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
    """One worker: its states of the current level, its part of the seen set, and what it saw
    during the level (for the counts at an event).

    Values are numbered: each column (a variable of the state, and under a VIEW or SYMMETRY a
    variable of the key) has a table of the values this worker met, and a state is known by the
    tuple of its values' numbers. The seen set and the level's candidates are keyed by those
    tuples of small integers (cheap to hash and compare, where a state's own hash walks its
    values every time), a successor is sent to its owner as its numbers (each value crosses to
    a worker once, see ``_flush``), and the states of the next level are rebuilt from the
    tables, which also shares their values as ``intern_state`` does in one process (the model's
    memos meet values by identity)."""

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
        self.pool: dict = {}  # every value received, by value (see _share)
        width = self.width = len(level[0])
        # columns: the state's variables, then (with a key function) the key's; value 0 of
        # every column is _NONE (the key columns of a key that is not a state-wide tuple)
        self.ncols = width if self.ident else 2 * width
        self.tab_ids: list[dict] = [{_NONE: 0} for _ in range(self.ncols)]  # value -> number
        self.tab_vals: list[list] = [[_NONE] for _ in range(self.ncols)]  # number -> value
        # per column, the next count of each routing residue r: a value's number is count * n + r,
        # so that a key's owner, the sum of its values' residues mod n, is the sum of its numbers
        # mod n (no table of routing hashes to read)
        self.tab_next: list[list[int]] = [[1] + [0] * (n - 1) for _ in range(self.ncols)]
        # to each worker: per column, which numbers it was sent (their values); from each
        # worker: per column, its numbers -> this worker's
        self.known = [[bytearray(b"\x01") for _ in range(self.ncols)] for _ in range(n)]
        self.maps = [[[0] for _ in range(self.ncols)] for _ in range(n)]
        # key numbers -> gid of this worker's states, ~index of this level's candidates, SENT
        # for the keys of the other workers' states that this worker sent (never sent twice)
        self.seen: dict = {}
        self.keys: list = []  # local index -> key numbers
        self.parent = array("q")
        self.action = array("i")
        self.lv_states: list = []
        self.lv_pos = array("q")
        self.lv_gid = array("q")
        # the checker's states: the ones this worker owns (the checker's seen set is left alone:
        # reading it would copy its pages into this process)
        keys = search.keys
        for idx in range(self.base):
            k, o = self._local_key(keys[idx])
            if o == w:
                self.seen[k] = idx
        for pos, st in enumerate(level):
            _, o = self._local_key(keys[level_idx[pos]])
            if o == w:
                self.lv_states.append(self._state(self._ids(st, 0)))
                self.lv_pos.append(pos)
                self.lv_gid.append(level_idx[pos])
        self.progress_every = min(1.0, search.limits.progress_every)
        self._reset_level()

    def _reset_level(self) -> None:
        self.c_key: list = []  # by candidate index: the key numbers (seen[key] is ~index)
        self.c_place: list[int] = []  # ... the smallest place seen
        self.c_act: list[int] = []  # ... its action
        self.c_pg: list[int] = []  # ... its parent's gid
        self.c_sid: list = []  # ... its state's numbers (without a key function: the key)
        self.ends = 0
        # (lists: an array's append parses its argument, several times the cost of a list's)
        self.exp_pos: list[int] = []  # expanded parents' positions, in order
        self.exp_n: list[int] = []  # ... and their numbers of successors
        self.succ_act: list[int] = []  # the action of every successor generated, in order
        self.expanded = 0
        self.generated = 0
        self.event: tuple | None = None  # (pos, j, phase, info) of the first event seen here
        self.new: list = []  # (place, action) of this level's new states, by place

    # ---- values and their numbers ------------------------------------------------------------
    def _ids(self, t: tuple, off: int, got: tuple | None = None) -> tuple:
        """The numbers of the values of ``t`` in the columns from ``off`` on, new values added
        to the tables (``got``: the numbers looked up already, None for the new values)."""
        if got is None:
            got = tuple(map(dict.get, self.tab_ids[off:off + len(t)], t))
            if None not in got:
                return got
        out = list(got)
        for c, x in enumerate(got):
            if x is None:
                out[c] = self._number(off + c, t[c])
        return tuple(out)

    def _number(self, col: int, v: Any) -> int:
        """Give the value ``v``, new in column ``col``, the next number of that column with its
        routing residue: the owner of a state is a function of its values only (the same in
        every worker; a key column is hashed as the state column of the same variable), the sum
        of the residues mod n, which is the sum of the numbers mod n."""
        n = self.n
        r = hash((col % self.width, v)) % n
        nxt = self.tab_next[col]
        x = nxt[r] * n + r
        nxt[r] += 1
        self.tab_ids[col][v] = x
        vals = self.tab_vals[col]
        if x >= len(vals):  # (numbers are dense but for the residues' imbalance)
            vals.extend([_NONE] * (x + 1 - len(vals)))
        vals[x] = v
        return x

    def _state(self, sid: tuple) -> State:
        return tuple(map(list.__getitem__, self.tab_vals[:self.width], sid))

    def _local_key(self, kv: Any) -> tuple[tuple, int]:
        """The key numbers of the key ``kv`` and its owner."""
        n = self.n
        if self.ident:
            k = self._ids(kv, 0)
            return k, sum(k) % n
        w = self.width
        if kv.__class__ is tuple and len(kv) == w:
            k = self._ids(kv, w)
            return k, sum(k) % n
        return ("#", kv), hash(kv) % n

    def _key_value(self, k: tuple) -> Any:
        """The key whose numbers are ``k`` (what the checker stores)."""
        if self.ident:
            return self._state(k)
        if k[0].__class__ is str:  # ("#", key)
            return k[1]
        return tuple(map(list.__getitem__, self.tab_vals[self.width:], k))

    # ---- messages --------------------------------------------------------------------------
    def _put(self, q: Any, msg: tuple) -> None:
        try:
            data = pickle.dumps(msg, PROTO)
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError) as exc:
            raise ParallelUnsupported(f"a state cannot be sent to another process ({exc})") from None
        q.put(data)

    def _flush(self, o: int, box: list) -> None:
        """Send worker ``o`` the successors of ``box`` (rows of numbers, places, actions, parents,
        keys that are not numbered) with the values it has not been sent yet."""
        rows, places, acts, pgs, odd = box
        ncols = self.ncols
        flat = array("i", chain.from_iterable(rows))
        fresh = []
        for c, kn in enumerate(self.known[o]):
            col = flat[c::ncols]
            top = max(col)
            if top >= len(kn):
                kn.extend(bytes(top + 1 - len(kn)))
            vals = self.tab_vals[c]
            for x in set(col):
                if not kn[x]:
                    kn[x] = 1
                    fresh.append((c, x, vals[x]))
        self._put(self.inboxes[o], ("b", self.w, fresh, flat.tobytes(), places, acts, pgs, odd))

    def _receive(self, data: bytes) -> None:
        msg = pickle.loads(data)
        if msg[0] == "e":
            self.ends += 1
            return
        _, src, fresh, flat_b, places, acts, pgs, odd = msg
        maps = self.maps[src]
        share, tab_ids = self._share, self.tab_ids
        width = self.width
        for c, x, v in fresh:
            lid = tab_ids[c].get(v)  # (a value this worker met already needs no sharing)
            if lid is None:
                lid = self._number(c, share(v))
            mp = maps[c]
            if x >= len(mp):
                mp.extend([0] * (x + 1 - len(mp)))
            mp[x] = lid
        flat = array("i")
        flat.frombytes(flat_b)
        ncols = self.ncols
        cols = [list(map(mp.__getitem__, flat[c::ncols])) for c, mp in enumerate(maps)]
        if self.ident:
            keys = sids = list(zip(*cols))
        else:
            sids = list(zip(*cols[:width]))
            keys = list(zip(*cols[width:]))
            for i, kv in odd:
                keys[i] = ("#", kv)
        seen = self.seen
        c_key, c_place, c_act, c_pg, c_sid = self.c_key, self.c_place, self.c_act, self.c_pg, self.c_sid
        for k, place, ai, pg, sid in zip(keys, places, acts, pgs, sids):
            g = seen.get(k)
            if g is None:
                seen[k] = ~len(c_place)
                c_key.append(k)
                c_place.append(place)
                c_act.append(ai)
                c_pg.append(pg)
                c_sid.append(sid)
            elif g < 0:
                ci = ~g
                if place < c_place[ci]:
                    c_place[ci] = place
                    c_act[ci] = ai
                    c_pg[ci] = pg
                    c_sid[ci] = sid

    def _drain(self, timeout: float | None) -> None:
        inbox = self.inboxes[self.w]
        while True:
            try:
                data = inbox.get(timeout=timeout) if timeout is not None else inbox.get_nowait()
            except queue.Empty:
                return
            self._receive(data)
            if timeout is not None:
                return

    def _alive_parent(self) -> None:
        if os.getppid() != self.ppid:  # the checker is gone
            os._exit(3)

    def _progress(self) -> None:
        self.results.put(pickle.dumps(("p", self.w, self.generated, self.expanded, len(self.c_key)), PROTO))

    # ---- one level ---------------------------------------------------------------------------
    def expand(self) -> None:
        """Expand this worker's states of the level, route the successors, collect the ones
        routed here, keep the new states and check them, then report to the checker."""
        model, plan, key, ident = self.model, self.plan, self.key, self.ident
        n, w, width = self.n, self.w, self.width
        constraints, acons = plan.constraints, plan.action_constraints
        invariants, aprops = plan.invariants, plan.action_props
        check_deadlock = plan.check_deadlock
        dget, lget = dict.get, list.__getitem__
        s_ids, s_vals = self.tab_ids[:width], self.tab_vals[:width]
        k_ids = s_ids if ident else self.tab_ids[width:]
        ids_of = self._ids
        nokey = (0,) * width
        boxes: list = [None] * n
        seen = self.seen
        c_key, c_place, c_act, c_pg, c_sid = self.c_key, self.c_place, self.c_act, self.c_pg, self.c_sid
        exp_pos, exp_n, succ_act = self.exp_pos, self.exp_n, self.succ_act
        states, lv_pos, lv_gid = self.lv_states, self.lv_pos, self.lv_gid
        next_tick = time.monotonic() + self.progress_every
        generated = 0
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
                    in_model = True
                    for _, c in constraints:
                        if not c(succ):
                            in_model = False
                            break
                    if in_model:
                        for _, a in acons:
                            if not a(st, succ):
                                in_model = False
                                break
                    if in_model:
                        sid = tuple(map(dget, s_ids, succ))
                        if None in sid:
                            sid = ids_of(succ, 0, sid)
                        kv = None
                        if ident:
                            k = sid
                            o = sum(k) % n
                        else:
                            # the table's values: the key's memos meet them by identity
                            kv = key(tuple(map(lget, s_vals, sid)))
                            if kv.__class__ is tuple and len(kv) == width:
                                k = tuple(map(dget, k_ids, kv))
                                if None in k:
                                    k = ids_of(kv, width, k)
                                o = sum(k) % n
                                kv = None
                            else:  # a key that is not a state-wide tuple: by value
                                k = ("#", kv)
                                o = hash(kv) % n
                        place = base | j
                        if o == w:
                            g = seen.get(k)
                            if g is None:
                                seen[k] = ~len(c_place)
                                c_key.append(k)
                                c_place.append(place)
                                c_act.append(ai)
                                c_pg.append(pg)
                                c_sid.append(sid)
                            elif g < 0:
                                ci = ~g
                                if place < c_place[ci]:
                                    c_place[ci] = place
                                    c_act[ci] = ai
                                    c_pg[ci] = pg
                                    c_sid[ci] = sid
                        elif k not in seen:
                            # this worker's first place of k is its smallest; in a later level
                            # its owner has it already
                            seen[k] = SENT
                            box = boxes[o]
                            if box is None:
                                box = boxes[o] = ([], [], [], [], [])
                            rows = box[0]
                            if ident:
                                rows.append(k)
                            elif kv is None:
                                rows.append(sid + k)
                            else:
                                box[4].append((len(rows), kv))
                                rows.append(sid + nokey)
                            box[1].append(place)
                            box[2].append(ai)
                            box[3].append(pg)
                            if len(rows) >= CHUNK:
                                self._flush(o, box)
                                boxes[o] = None
                    else:
                        phase = 1  # not stored: checked at every discovery, here
                        for name, inv in invariants:
                            if not inv(succ):
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
            except EvalError as exc:
                exp_n.append(j + (phase >= 0))
                bad = exc.state if isinstance(exc.state, tuple) else None
                extra = [] if bad is None or bad is st else [(-1, bad)]
                self.event = (pos, j, phase, ("error", str(exc), None, pg, extra, exc.span))
            else:
                exp_n.append(j)
                if j == 0 and check_deadlock:
                    self.event = (pos, 0, 3, ("deadlock", "Deadlock reached.", None, pg, []))
            self.expanded += 1
            self.generated = generated
            if self.event is not None:
                break  # everything after it is after the single search's stop
            if i & 31 == 0:
                if i & 16383 == 0:
                    gc.freeze()  # (as the single search: the tables and the seen set hold no garbage)
                self._drain(None)
                now = time.monotonic()
                if now >= next_tick:
                    next_tick = now + self.progress_every
                    self._progress()
                    self._alive_parent()
        self.generated = generated
        self.lv_states = []
        for o in range(n):
            if o != w:
                if boxes[o] is not None:
                    self._flush(o, boxes[o])
                self._put(self.inboxes[o], ("e", w))
        del boxes
        while self.ends < n - 1:
            self._drain(1.0)
            self._alive_parent()
        self._finish()

    def _finish(self) -> None:
        """Keep this level's new states (in the single search's order) and check the invariants
        on them up to the first violation; report to the checker."""
        c_place, c_act, c_pg, c_sid = self.c_place, self.c_act, self.c_pg, self.c_sid
        c_key = self.c_key
        order = sorted(range(len(c_place)), key=c_place.__getitem__)
        invariants = self.plan.invariants
        keys, parent, action, seen = self.keys, self.parent, self.action, self.seen
        n, w, base = self.n, self.w, self.base
        s_vals = self.tab_vals[:self.width]
        lget = list.__getitem__
        places = array("q")
        states = []
        gids = array("q")
        event = self.event
        check = True
        new = self.new
        for ci in order:
            k = c_key[ci]
            place, ai, pg = c_place[ci], c_act[ci], c_pg[ci]
            succ = tuple(map(lget, s_vals, c_sid[ci]))
            gid = base + len(keys) * n + w
            keys.append(k)
            seen[k] = gid
            parent.append(pg)
            action.append(ai)
            places.append(place)
            states.append(succ)
            gids.append(gid)
            new.append((place, ai))
            if check and (event is None or (place >> SHIFT, place & LAST, 1) < event[:3]):
                try:
                    for name, inv in invariants:
                        if not inv(succ):
                            event = (place >> SHIFT, place & LAST, 1,
                                     ("invariant", f"Invariant {name} is violated.", name, gid, []))
                            check = False
                            break
                except EvalError as exc:
                    bad = exc.state if isinstance(exc.state, tuple) else None
                    event = (place >> SHIFT, place & LAST, 1,
                             ("error", str(exc), None, pg, [] if bad is None else [(-1, bad)], exc.span))
                    check = False
        self.event = event
        self.lv_states, self.lv_gid = states, gids
        gc.freeze()
        self.new_places = places
        cov_gen = [0] * self.n_actions
        for a in self.succ_act:
            cov_gen[a] += 1
        cov_new = [0] * self.n_actions
        for _, a in self.new:
            cov_new[a] += 1
        self._put(self.results, ("level", w, len(states), event, self.generated, cov_gen, cov_new, places.tobytes()))

    def _share(self, v: Any) -> Any:
        """The value equal to ``v`` that this worker holds, down to the components (received
        values are fresh objects: as in one process, the states must share their values, which
        the model's memos — symmetry, VIEW, domains in TLC order — meet by identity)."""
        c = v.__class__
        if c is int or c is bool:
            return v
        pool = self.pool
        r = pool.get(v)
        if r is not None:
            return r
        share = self._share
        if c is tuple:
            v = tuple([share(x) for x in v])
        elif c is frozenset:
            v = frozenset([share(x) for x in v])
        elif c is Fn:
            v = fn_of_items(tuple([(share(k), share(x)) for k, x in dict.items(v)]))
        return pool.setdefault(v, v)

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
        count = 0
        for place, a in self.new:
            if place < limit or (place == limit and phase >= 1):
                cov_new[a] += 1
                count += 1
        return gen, cov_gen, count, cov_new

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
                self._put(self.results, ("node", self.w, self._key_value(self.keys[local]), self.parent[local],
                                          self.action[local]))


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
        included_new = self._upto((pos, j, phase))
        verdict, message, violated, at, extra = info[:5]
        span = info[5] if len(info) > 5 else None
        if verdict == "invariant" and not extra:
            included_new -= 1  # TLC's queue: the violating state is checked before it is enqueued
        self.search.queue_left = self.n_level - pos - 1 + included_new
        idx = self._adopt(at)
        raise Found(verdict, message, violated, idx, extra, span)

    def _upto(self, place: tuple) -> int:
        """Set the search's figures to those of the single search at ``place``; returns the
        number of new states of this level it had found by then."""
        self._command(("upto", place))
        got = self._gather("upto")
        gen = sum(r[2][0] for r in got.values())
        new = sum(r[2][2] for r in got.values())
        for r in got.values():
            for a, (g, d) in enumerate(zip(r[2][1], r[2][3])):
                self.cov_gen[a] += g
                self.cov_new[a] += d
        self.generated += gen
        self.distinct += new
        self._sync(self.n_level - place[0] - 1 + new, new)
        return new

    def _adopt(self, gid: int) -> int:
        """Copy the path to ``gid`` from the workers into the search (its keys, parents and
        actions), so that its ``trace`` replays it; returns the search's index of ``gid``."""
        search, n, base = self.search, self.n, self.base
        chain = []
        g = gid
        while g >= base:
            w, local = (g - base) % n, (g - base) // n
            self.boxes[2][w].put(pickle.dumps(("node", local), PROTO))
            got = self._gather("node", only=w)
            _, _, k, parent, action = got[w]
            chain.append((k, action))
            g = parent
        idx = g
        for k, action in reversed(chain):
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
            if pss_bytes(os.getpid()) + sum(pss_bytes(p.pid) for p in self.procs) >= max_memory:
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
