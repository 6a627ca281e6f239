"""Which API handlers reach which functions: a generic pass over one service's own call graph.

Each analyzer names its functions its own way (a Python qualified name, a JVM class + method, a
Node function id); it gives the handlers' entry functions and the intra-service call edges, and
gets back, for every function, every handler whose code reaches it however many calls deep.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

N = TypeVar("N", bound=Hashable)

#: How deep a chain of calls is followed; the graph is the service's own code, so this is a guard.
MAX_DEPTH = 32


def reached_by(
    entries: Mapping[str, Iterable[N]], callees: Callable[[N], Iterable[N]], max_depth: int = MAX_DEPTH
) -> dict[N, set[str]]:
    """Function -> the handlers (keys of ``entries``) whose entry functions reach it, the entry
    functions included; cycles and shared helpers are fine."""
    out: dict[N, set[str]] = {}
    memo: dict[N, tuple[N, ...]] = {}
    for handler in sorted(entries):
        seen: set[N] = set()
        frontier = [n for n in entries[handler] if n not in seen]
        depth = 0
        while frontier and depth <= max_depth:
            following: list[N] = []
            for node in frontier:
                if node in seen:
                    continue
                seen.add(node)
                out.setdefault(node, set()).add(handler)
                if node not in memo:
                    memo[node] = tuple(callees(node))
                following.extend(n for n in memo[node] if n not in seen)
            frontier = following
            depth += 1
    return out
