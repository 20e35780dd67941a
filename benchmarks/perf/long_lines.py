"""Parse time of one long line: an inline ``/\\`` chain of N terms, with the parser's long-line
breaking (specula.tla.longlines) and without it, side by side in one run (issue 23 item 3).

    python benchmarks/perf/long_lines.py [N ...]
"""

from __future__ import annotations

import sys
import time

import specula.tla.longlines as longlines
from specula.tla.syntax import parse_module


def spec(n: int) -> str:
    chain = " /\\ ".join(f"x # {i}" for i in range(n))
    return f"---- MODULE Chain ----\nEXTENDS Naturals\nVARIABLE x\nInv == {chain}\n====\n"


def seconds(text: str) -> float:
    t0 = time.perf_counter()
    parse_module(text, "Chain.tla")
    return time.perf_counter() - t0


def main(sizes: list[int]) -> None:
    defaults = longlines.split_long_lines.__defaults__
    print(f"{'terms':>7} {'broken (s)':>11} {'as written (s)':>15} {'ratio':>7}")
    for n in sizes:
        text = spec(n)
        fast = seconds(text)
        longlines.split_long_lines.__defaults__ = (10**12, longlines.CHUNK)  # never break: the old parse
        try:
            slow = seconds(text) if n <= 20_000 else float("nan")
        finally:
            longlines.split_long_lines.__defaults__ = defaults
        print(f"{n:>7} {fast:>11.2f} {slow:>15.2f} {slow / fast:>7.1f}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [1_000, 5_000, 20_000])
