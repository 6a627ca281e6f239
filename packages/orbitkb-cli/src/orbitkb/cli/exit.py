"""Exit statuses of the orbitkb command."""

from __future__ import annotations

from enum import IntEnum


class ExitStatus(IntEnum):
    OK = 0
    ERROR = 1  # the command ran and failed (git error, store error, LLM failure...)
    USAGE = 2  # bad arguments or input (a missing path, an unknown service, a bad revision)
    NOT_FOUND = 3  # a named thing is not in the knowledge model
    EMPTY = 4  # nothing indexed yet
    CONFLICT = 5  # the request would replace knowledge that belongs to something else
    PARTIAL = 6  # indexed (facts kept), but LLM units or another post-index step failed
    INTERRUPTED = 130  # Ctrl-C or SIGTERM: pending LLM units cancelled, the run marked interrupted
