"""A server process's own CPU time, read from Linux's per-thread schedstat: unlike wall time, the
load of a shared machine does not inflate it (benchmarks/side_by_side.py, benchmarks/mcp_latency.py)."""

from __future__ import annotations

import os
from pathlib import Path


def server_pid(marker: str) -> int | None:
    """The pid of this process's child whose command line holds ``marker`` (a server's database)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError, IndexError):
            continue
        if ppid == os.getpid() and marker in cmdline:
            return int(stat.parent.name)
    return None


def thread_cpu(pid: int | None) -> dict[str, float]:
    """CPU seconds of each live thread of a process, by thread id, in nanoseconds' resolution (Linux
    schedstat; empty elsewhere): unlike wall time, the load of a shared machine does not inflate it."""
    if pid is None:
        return {}
    out: dict[str, float] = {}
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            out[stat.parent.name] = int(stat.read_text().split()[0]) / 1e9
        except (OSError, ValueError, IndexError):
            continue
    return out


def cpu_spent(before: dict[str, float], after: dict[str, float]) -> float:
    """CPU seconds the threads alive at the end spent since ``before`` (a thread born meanwhile from 0).
    A thread that ended meanwhile is not counted: a sum over the live threads would drop all its time
    and could go below zero (a server that runs a call on a short-lived thread)."""
    return sum(max(0.0, seconds - before.get(tid, 0.0)) for tid, seconds in after.items())
