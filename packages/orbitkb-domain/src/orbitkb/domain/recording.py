"""Recording beside answering: change-surface runs, feedback, verifications and smell runs are
history kept for later, not the answer asked for now. A store that refuses this process's writes
(StoreReadOnly: a read-only file or mount, ``--read-only``, a PostgreSQL role with SELECT only)
costs the record, never the answer — which then says so in one line."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from orbitkb.domain.errors import StoreReadOnly

T = TypeVar("T")

#: Why nothing was recorded, said the same way by every answer that could not record.
READ_ONLY = "the knowledge base is read-only here"


def not_recorded(what: str, consequence: str = "") -> str:
    """``"<what> not recorded: the knowledge base is read-only here[; consequence]"``."""
    return f"{what} not recorded: {READ_ONLY}" + (f"; {consequence}" if consequence else "")


def attempt(write: Callable[[], T]) -> tuple[T | None, bool]:
    """``(write(), True)``, or ``(None, False)`` when the store refuses writes; any other error is raised."""
    try:
        return write(), True
    except StoreReadOnly:
        return None, False


def joined(*notes: str | None) -> str | None:
    """Notes of one answer in one line (None when there is none)."""
    kept = [n for n in notes if n]
    return "; ".join(kept) if kept else None
