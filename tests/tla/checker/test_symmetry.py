"""The key of a state under SYMMETRY must be a canonical form of its orbit: the same for every
permuted state, different for states of different orbits. Checked against the orbits computed
by brute force (every permutation of the group applied), on every reachable state of a spec
whose representatives need several permutations to be told apart, and for a group that is not
a product of symmetric groups. TLC's own counts for the spec are in test_specs (expected.json).
"""

from __future__ import annotations

from itertools import product
from pathlib import Path

from specula.tla.checker import build_model
from specula.tla.symmetry import key_function
from specula.tla.values import Fn, ModelValue, make_fn

SPECS = Path(__file__).resolve().parents[1] / "specs"


def _reachable(model) -> list[tuple]:
    seen = set(model.init_states())
    todo = list(seen)
    while todo:
        s = todo.pop()
        for _, t in model.next_states(s):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return sorted(seen, key=repr)


def _assert_canonical(states: list[tuple], perms: list, permute, key) -> int:
    orbit_of = {}
    for s in states:
        orbit = frozenset(permute(s, p) for p in perms)
        assert s in orbit
        orbit_of[s] = orbit
        k = key(s)
        for t in orbit:
            assert key(t) == k, (s, t)
    keys = {key(s): orbit_of[s] for s in states}
    assert len(keys) == len(set(orbit_of.values()))  # different orbits, different keys
    return len(keys)


def test_orbit_key_of_every_reachable_state_of_a_paired_spec() -> None:
    model, _ = build_model(SPECS / "SymmetricPairs.tla", SPECS / "SymmetricPairs.cfg")
    assert len(model.symmetry_perms) == 12  # Permutations(Procs) \cup Permutations(Vals), closed
    states = _reachable(model)
    n = _assert_canonical(states, model.symmetry_perms, model.permute, key_function(model))
    assert n == 332  # TLC's distinct states for this model (expected.json: SymmetricPairs)


class _Rotations:
    """A model with the rotations of three model values (a group that is not the product of
    symmetric groups) and no VIEW."""

    def __init__(self, perms: list) -> None:
        self.symmetry_perms = perms
        self.has_view = False

    def permute(self, state: tuple, perm) -> tuple:
        def pv(v):
            if v.__class__ is ModelValue:
                return perm.get(v, v)
            if v.__class__ is tuple:
                return tuple(pv(x) for x in v)
            if v.__class__ is frozenset:
                return frozenset(pv(x) for x in v)
            if v.__class__ is not Fn:
                return v
            return make_fn({pv(k): pv(x) for k, x in v.items()})

        return tuple(pv(x) for x in state)


def test_orbit_key_under_a_cyclic_group() -> None:
    a, b, c = (ModelValue(x) for x in "abc")
    pts = [a, b, c]

    def fn(d: dict) -> Fn:
        return make_fn(d)

    perms = [fn({p: pts[(i + r) % 3] for i, p in enumerate(pts)}) for r in range(3)]
    states = []
    for x, y in product(pts, repeat=2):
        for owner in product([0, 1], repeat=3):
            states.append((x, fn({p: o for p, o in zip(pts, owner)}), frozenset({(x, y)})))
    m = _Rotations(perms)
    n = _assert_canonical(states, perms, m.permute, key_function(m))
    assert n == len(states) // 3  # no state is fixed by a rotation here


def test_key_from_the_parent_is_the_key() -> None:
    """``key(t, parent)`` (a new set's entry built from the parent's set's and the elements that
    differ) is the key ``t`` gets without a parent, for every transition of the spec, including
    sets that lose elements (a permuted state as the 'parent') and sets of sets of model values."""
    model, _ = build_model(SPECS / "SymmetricPairs.tla", SPECS / "SymmetricPairs.cfg")
    states = _reachable(model)
    assert getattr(key_function(model), "takes_parent", False)
    perms = model.symmetry_perms
    n = 0
    # fresh key functions, fed the same states (without an order, strings and model values are
    # ranked at first sight, which picks the representative of an orbit with ties)
    for s in states:
        with_parent, plain = key_function(model), key_function(model)
        assert with_parent(s) == plain(s)
        for _, t in model.next_states(s):
            assert with_parent(t, s) == plain(t), (s, t)
            n += 1
    assert n > len(states)
    # a parent whose sets differ from the state's both ways
    for s, t in zip(states[::3], reversed(states)):
        for p in perms[:4]:
            with_parent, plain = key_function(model), key_function(model)
            u = model.permute(t, p)
            assert with_parent(u) == plain(u)
            assert with_parent(s, u) == plain(s), (s, u)
