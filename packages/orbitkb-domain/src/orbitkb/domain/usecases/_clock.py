"""Time as an injectable dependency (tests pin it)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], str]


def utc_now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat()
