"""Timing without touching the code under test: a progress callback that records when each
pipeline stage is first and last reported, and delegating proxies around the analyzer and store."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_ms(fn: Callable[[], object], calls: int) -> float:
    """The median wall time of ``calls`` calls of ``fn``, in milliseconds."""
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


class StageTimer:
    """The progress callback: stage -> (first report, last report), relative to ``start``."""

    def __init__(self) -> None:
        self.start = time.perf_counter()
        self.first: dict[str, float] = {}
        self.last: dict[str, float] = {}
        self.order: list[str] = []

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.perf_counter() - self.start
        if stage not in self.first:
            self.first[stage] = now
            self.order.append(stage)
        self.last[stage] = now

    def spans(self) -> dict[str, dict[str, float]]:
        return {s: {"from": round(self.first[s], 3), "to": round(self.last[s], 3)} for s in self.order}


class Timed:
    """Delegates every attribute; the named methods are timed into ``seconds``."""

    def __init__(self, inner: Any, methods: tuple[str, ...]) -> None:
        self._inner = inner
        self._methods = methods
        self.seconds: dict[str, float] = {}

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name not in self._methods or not callable(attr):
            return attr

        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return attr(*args, **kwargs)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t0

        return timed

    def reset(self) -> None:
        self.seconds = {}
