"""Progress for long runs: a tqdm bar on a terminal, a few plain lines otherwise (logs, CI)."""

from __future__ import annotations

import sys
import time
from typing import Any


class Progress:
    def __init__(self, enabled: bool = True) -> None:
        self._enabled = enabled
        self._tty = sys.stderr.isatty()
        self._stage: str | None = None
        self._bar: Any = None
        self._start = time.monotonic()
        self._last_plain = 0.0

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self._enabled:
            return
        if stage != self._stage:
            self.close()
            self._stage = stage
            if self._tty:
                from tqdm import tqdm

                self._bar = tqdm(total=total or None, desc=stage, unit="file", file=sys.stderr, leave=False,
                                 dynamic_ncols=True)
            else:
                print(f"orbitkb: {stage}: {total} to do", file=sys.stderr)
        if self._bar is not None:
            if total and self._bar.total != total:
                self._bar.total = total
            self._bar.n = done
            self._bar.refresh()
        elif time.monotonic() - self._last_plain > 5 and total:
            self._last_plain = time.monotonic()
            print(f"orbitkb: {stage}: {done}/{total} ({time.monotonic() - self._start:.0f}s)", file=sys.stderr)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self._start
