"""session room: ``specula session`` — refine a spec interactively, by hand or with the agent
inside: a ``Controller`` over one run directory (commands, steering, confirm mode) and a textual
``SessionApp`` over it. Nothing is imported from textual until the app is asked for.

Typical use::

    from specula.session import open_session
    ctl = open_session(load_task("spinlock"), mutant="TryLockBlocks")
    ctl.edit("AcquireLock", "AcquireLock(t) == ...")
    ctl.run_phase("all")
"""

from typing import Any

from specula.session.controller import COMMANDS, Controller, Pending, parse_command
from specula.session.open import open_session, pick_model

__all__ = ["Controller", "Pending", "COMMANDS", "parse_command", "open_session", "pick_model", "SessionApp"]


def __getattr__(name: str) -> Any:
    if name == "SessionApp":
        from specula.session.app import SessionApp

        return SessionApp
    raise AttributeError(f"module 'specula.session' has no attribute {name!r}")
