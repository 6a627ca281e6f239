"""Progress for long runs: a tqdm bar per stage on a terminal, one line per stage otherwise (logs, CI).

A stage's clock starts when the previous stage reported last, not at its own first report: some
stages (link, resolve) report only when they are done, and a rate computed over the instant
between their first and last report would read millions of items per second.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

#: What a stage counts; LLM stages ("llm endpoints", ...) count units.
UNITS = {"walk": "files", "parse": "files", "link": "services", "resolve": "services", "embed": "texts"}
#: Below this many seconds a rate says nothing (and a plain line omits it).
MIN_RATE_SECONDS = 0.05


def unit_of(stage: str) -> str:
    return UNITS.get(stage, "units")


class Progress:
    def __init__(self, enabled: bool = True, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._enabled = enabled
        self._stream = stream if stream is not None else sys.stderr
        self._tty = bool(getattr(self._stream, "isatty", lambda: False)())
        self._clock = clock
        self._start = clock()
        self._last = self._start  # the last report of any stage: where the next stage's clock starts
        self._stage: str | None = None
        self._stage_start = self._start
        self._done = 0
        self._total = 0
        self._bar: Any = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self._enabled:
            return
        now = self._clock()
        if stage != self._stage:
            self._finish()
            self._stage, self._stage_start = stage, self._last
            if self._tty:
                self._bar = self._new_bar(stage, total)
        self._done, self._total, self._last = done, max(total, done), now
        if self._bar is not None:
            if self._total and self._bar.total != self._total:
                self._bar.total = self._total
            if done >= self._bar.n:
                self._bar.update(done - self._bar.n)
            else:
                self._bar.n = done
                self._bar.refresh()

    def _new_bar(self, stage: str, total: int) -> Any:
        from tqdm import tqdm

        bar = tqdm(total=total or None, desc=stage, unit=f" {unit_of(stage)}", file=self._stream,
                   leave=True, dynamic_ncols=True, smoothing=0, mininterval=0.1)
        # tqdm's clock is time.time; move its start back by the time this stage has already run
        bar.start_t -= self._clock() - self._stage_start
        return bar

    def _finish(self) -> None:
        if self._stage is None:
            return
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        else:
            self._stream.write(self._line() + "\n")
            self._stream.flush()
        self._stage = None

    def _line(self) -> str:
        unit = unit_of(self._stage or "")
        seconds = self._last - self._stage_start
        count = f"{self._done:,}" if self._done == self._total else f"{self._done:,} of {self._total:,}"
        rate = f", {self._done / seconds:,.1f} {unit}/s" if seconds >= MIN_RATE_SECONDS and self._done else ""
        return f"orbitkb: {self._stage}: {count} {unit} in {seconds:.1f}s{rate}"

    def close(self) -> None:
        self._finish()

    @property
    def elapsed(self) -> float:
        return self._clock() - self._start
