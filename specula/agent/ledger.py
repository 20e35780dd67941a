"""Token and cost ledger, and the hard budget of a run.

Prices are dollars per million tokens (input, output). Unknown models cost 0 and are marked
``priced=False`` in usage.json so a reader knows the dollar figure is not real.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from specula.agent.messages import Usage
from specula.errors import BudgetExceeded, ConfigError

__all__ = ["PRICES", "price_of", "Ledger", "Budget", "parse_budget"]

# (input $/Mtok, output $/Mtok); matched by longest prefix of the model name.
PRICES: dict[str, tuple[float, float]] = {
    "claude-opus-4-1": (15.0, 75.0),
    "claude-opus-4-0": (15.0, 75.0),
    "claude-opus-4": (5.0, 25.0),
    "claude-sonnet-4": (3.0, 15.0),
    "claude-3-7-sonnet": (3.0, 15.0),
    "claude-haiku-4": (1.0, 5.0),
    "claude-3-5-haiku": (0.8, 4.0),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.0),
    "gpt-5": (1.25, 10.0),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.0, 8.0),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.5, 10.0),
    "o3": (2.0, 8.0),
    "o4-mini": (1.1, 4.4),
}


def price_of(provider: str, model: str) -> tuple[float, float] | None:
    """Price per million tokens, or None when unknown. Local servers are free."""
    if provider == "openai-compatible":
        return (0.0, 0.0)
    name = model.split("/")[-1]
    best = max((k for k in PRICES if name.startswith(k)), key=len, default=None)
    return PRICES[best] if best else None


@dataclass
class Ledger:
    """Every model call's tokens, cost and duration; totals for usage.json."""

    provider: str
    model: str
    calls: list[dict[str, Any]] = field(default_factory=list)

    def record(self, usage: Usage, seconds: float, purpose: str = "loop") -> float:
        price = price_of(self.provider, self.model)
        cost = 0.0
        if price:
            cost = (
                (usage.input_tokens + usage.cache_write_tokens * 1.25 + usage.cache_read_tokens * 0.1) * price[0]
                + usage.output_tokens * price[1]
            ) / 1e6
        self.calls.append({"usage": usage.to_dict(), "cost": round(cost, 6), "seconds": round(seconds, 3), "purpose": purpose})
        return cost

    @property
    def usage(self) -> Usage:
        total = Usage()
        for c in self.calls:
            total = total + Usage.from_dict(c["usage"])
        return total

    @property
    def cost(self) -> float:
        return sum(c["cost"] for c in self.calls)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": "specula.usage/1",
            "provider": self.provider,
            "model": self.model,
            "priced": price_of(self.provider, self.model) is not None,
            "calls": len(self.calls),
            "usage": self.usage.to_dict(),
            "total_tokens": self.usage.total,
            "cost_usd": round(self.cost, 6),
            "per_call": self.calls,
        }

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Ledger":
        return Ledger(d["provider"], d["model"], list(d.get("per_call", [])))


@dataclass(frozen=True)
class Budget:
    """Hard limits of a run; ``None`` means unlimited."""

    tokens: int | None = None
    dollars: float | None = None
    iterations: int | None = None
    seconds: float | None = None

    def check(self, ledger: Ledger, iterations: int, elapsed: float) -> None:
        """Raise BudgetExceeded naming the first limit reached."""
        if self.iterations is not None and iterations >= self.iterations:
            raise BudgetExceeded(f"iteration budget used up ({iterations}/{self.iterations} model calls)")
        if self.tokens is not None and ledger.usage.total >= self.tokens:
            raise BudgetExceeded(f"token budget used up ({ledger.usage.total}/{self.tokens} tokens)")
        if self.dollars is not None and ledger.cost >= self.dollars:
            raise BudgetExceeded(f"dollar budget used up (${ledger.cost:.4f}/${self.dollars:.2f})")
        if self.seconds is not None and elapsed >= self.seconds:
            raise BudgetExceeded(f"time budget used up ({elapsed:.0f}s/{self.seconds:.0f}s)")

    def to_dict(self) -> dict[str, Any]:
        return {"tokens": self.tokens, "dollars": self.dollars, "iterations": self.iterations, "seconds": self.seconds}

    @staticmethod
    def from_dict(d: dict[str, Any]) -> "Budget":
        return Budget(d.get("tokens"), d.get("dollars"), d.get("iterations"), d.get("seconds"))


_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(s|m|h)?$")


def parse_budget(text: str | None, default: Budget | None = None) -> Budget:
    """Parse ``tokens=200000,dollars=2,iterations=40,time=30m`` (any subset; ``$2`` = dollars)."""
    base = default or Budget()
    if not text:
        return base
    values = base.to_dict()
    for part in filter(None, (p.strip() for p in text.split(","))):
        if part.startswith("$"):
            key, val = "dollars", part[1:]
        elif "=" in part:
            key, val = (s.strip() for s in part.split("=", 1))
        else:
            raise ConfigError(f"budget item {part!r} is not key=value", field="budget")
        key = {"usd": "dollars", "cost": "dollars", "iters": "iterations", "calls": "iterations",
               "time": "seconds", "wall": "seconds", "minutes": "minutes"}.get(key, key)
        try:
            if key == "tokens":
                values["tokens"] = int(float(val.lower().rstrip("k")) * (1000 if val.lower().endswith("k") else 1))
            elif key == "dollars":
                values["dollars"] = float(val.lstrip("$"))
            elif key == "iterations":
                values["iterations"] = int(val)
            elif key in ("seconds", "minutes"):
                m = _DURATION.match(val.strip())
                if not m:
                    raise ValueError(val)
                unit = m.group(2) or ("m" if key == "minutes" else "s")
                values["seconds"] = float(m.group(1)) * {"s": 1, "m": 60, "h": 3600}[unit]
            else:
                raise ConfigError(
                    f"unknown budget key {key!r} (use tokens, dollars, iterations, time)", field="budget"
                )
        except ValueError:
            raise ConfigError(f"budget value {val!r} for {key} is not a number", field="budget") from None
    return Budget.from_dict(values)


def now() -> float:
    return time.monotonic()
