"""TLC's 64-bit fingerprints of values (what TLCExt's ``TLCFP`` returns).

TLC fingerprints a value by feeding a byte encoding of it, byte by byte, into a polynomial hash
over GF(2^64) (Rabin fingerprints, its class FP64): the state is a 64-bit word, reduced modulo an
irreducible polynomial of degree 64 after each byte with a 256-entry table. The fingerprint starts
at the polynomial itself. TLC picks the polynomial at random among a fixed list for each run unless
given ``-fp N``; specula uses the list's first one (``-fp 0``), which TLC's tools that do not
choose also use.

The encoding of a value (each kind starts with its one-byte tag in TLC's value numbering; an
"int" is four bytes, least significant first):

- Boolean: tag 0, then the byte of ``t`` or ``f``;
- integer: tag 1, then the int;
- string: tag 3, its length in UTF-16 units as an int, then the low byte of each unit;
- model value: tag 21, then the int TLC numbers its name with when it interns it (a number this
  module cannot know: it uses the name's rank in the current string order);
- set: tag 5, its size as an int, then its elements in TLC's normalized order;
- function, record, sequence: tag 9, its size as an int, then for each element of the domain in
  TLC's order the encoding of the element followed by the encoding of its value (a sequence's
  domain is 1..n).

``TLCFP`` is the low 32 bits of the result as a signed int.
"""

from __future__ import annotations

from typing import Any

from specula.tla.values import Fn, LazyFn, LazySet, ModelValue, ValueFault, current_string_order, ordered, tlc_key

__all__ = ["fp64", "tlcfp"]

MASK = (1 << 64) - 1
# the first of TLC's irreducible polynomials (bit 63 is the coefficient of x^0)
POLY = 0x911498AE0E66BAD6

BOOL, INT, STRING, SET, FCN, MODEL = 0, 1, 3, 5, 9, 21


def _byte_table(poly: int) -> tuple[int, ...]:
    """For each byte b, the residue that shifting b out of the low end of the state contributes:
    x^(71-k) mod poly summed over b's set bits k (x^i in the reflected representation)."""
    powers = []
    t = 1 << 63  # the polynomial 1
    for _ in range(72):
        powers.append(t)
        t = (t >> 1) ^ (poly if t & 1 else 0)  # times x
    table = []
    for j in range(256):
        v = 0
        for k in range(8):
            if j >> k & 1:
                v ^= powers[71 - k]
        table.append(v)
    return tuple(table)


_TABLE = _byte_table(POLY)


class _Fp:
    __slots__ = ("fp",)

    def __init__(self, fp: int) -> None:
        self.fp = fp

    def byte(self, b: int) -> None:
        fp = self.fp
        self.fp = (fp >> 8) ^ _TABLE[(b ^ fp) & 0xFF]

    def int32(self, x: int) -> None:
        x &= 0xFFFFFFFF
        for _ in range(4):
            self.byte(x & 0xFF)
            x >>= 8

    def string(self, s: str) -> None:
        units = s.encode("utf-16-le")
        self.byte(STRING)
        self.int32(len(units) // 2)
        for i in range(0, len(units), 2):
            self.byte(units[i])

    def value(self, v: Any) -> None:
        c = v.__class__
        if c is bool:
            self.byte(BOOL)
            self.byte(ord("t") if v else ord("f"))
        elif c is int:
            if not -(1 << 31) <= v < (1 << 31):
                raise ValueFault(f"TLC cannot fingerprint {v}: it is not a 32-bit integer")
            self.byte(INT)
            self.int32(v)
        elif c is str:
            self.string(v)
        elif c is ModelValue:
            so = current_string_order()
            self.byte(MODEL)
            self.int32(so.of(v.name) if so is not None else 0)
        elif c is tuple:
            self.byte(FCN)
            self.int32(len(v))
            for i, x in enumerate(v, 1):
                self.byte(INT)
                self.int32(i)
                self.value(x)
        elif c is Fn:
            self.byte(FCN)
            self.int32(len(v))
            for k in sorted(v, key=tlc_key):
                self.value(k)
                self.value(v[k])
        elif c is frozenset:
            self.byte(SET)
            self.int32(len(v))
            for x in ordered(v):
                self.value(x)
        elif isinstance(v, LazySet):
            if not v.finite:
                raise ValueFault("TLC cannot fingerprint an infinite set")
            self.value(v.materialize())
        elif isinstance(v, LazyFn):
            self.value(v.materialize())
        else:
            raise ValueFault(f"not a TLA+ value: {v!r}")


def fp64(v: Any) -> int:
    """TLC's 64-bit fingerprint of v (unsigned), with its first polynomial (``-fp 0``)."""
    f = _Fp(POLY)
    f.value(v)
    return f.fp & MASK


def tlcfp(v: Any) -> int:
    """TLCExt's TLCFP: the low 32 bits of TLC's fingerprint, as a signed 32-bit integer."""
    low = fp64(v) & 0xFFFFFFFF
    return low - (1 << 32) if low >= (1 << 31) else low
