"""Linking a call's method and path to one of the callee's APIs (path parameters by position)."""

from __future__ import annotations

from collections.abc import Sequence

from orbitkb.domain.model import Api, ApiKind

MAX_DROPPED_PREFIX = 2  # gateway prefixes / context paths the callee does not see in its routes


def _segments(path: str) -> list[str]:
    return [s for s in path.split("?", 1)[0].split("/") if s]


def _is_param(segment: str) -> bool:
    return segment[:1] in "{:<*$" or segment.startswith("(") or segment == "**"


def _score(call: list[str], api: list[str]) -> int | None:
    """Number of literal segments matched, None when the paths differ."""
    if len(call) != len(api):
        return None
    score = 0
    for c, a in zip(call, api):
        if _is_param(a) or "\x00" in c:
            continue
        if c != a:
            return None
        score += 1
    return score


def match_api(method: str | None, path: str | None, apis: Sequence[Api]) -> Api | None:
    """The best API for ``path`` (sentinels = unknown segments); None when absent or ambiguous."""
    if not path or "**" in path:
        return None
    call = _segments(path)
    method = method.upper() if method else None
    for dropped in range(0, min(MAX_DROPPED_PREFIX, max(len(call) - 1, 0)) + 1):
        scored: list[tuple[int, Api]] = []
        for api in apis:
            if api.kind != ApiKind.HTTP or (method and api.method.upper() not in (method, "ANY", "ALL", "*")):
                continue
            score = _score(call[dropped:], _segments(api.path))
            if score is not None:
                scored.append((score, api))
        if scored:
            best = max(s for s, _ in scored)
            top = sorted({a.id: a for s, a in scored if s == best}.values(), key=lambda a: a.id)
            return top[0] if len(top) == 1 else None
    return None


def match_grpc(method: str | None, path: str | None, apis: Sequence[Api]) -> Api | None:
    """``pkg.Service/Method`` exactly, or ``Service/Method`` ignoring the package."""
    if not path:
        return None
    grpc = [a for a in apis if a.kind == ApiKind.GRPC]
    exact = [a for a in grpc if a.path == path]
    if len(exact) == 1:
        return exact[0]
    tail = path.rsplit(".", 1)[-1]
    loose = [a for a in grpc if a.path.rsplit(".", 1)[-1] == tail]
    return loose[0] if len(loose) == 1 else None
