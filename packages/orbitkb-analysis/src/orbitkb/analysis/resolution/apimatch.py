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
        if c != a and c.lower() != a.lower():  # ASP.NET and Express route without regard to case
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
            if score is not None and (score or not dropped):  # a dropped prefix leaves something known
                scored.append((score, api))
        if scored:
            best = max(s for s, _ in scored)
            top = sorted({a.id: a for s, a in scored if s == best}.values(), key=lambda a: a.id)
            return top[0] if len(top) == 1 else None
    return None


def _glob(pattern: list[str], api: list[str]) -> bool:
    """Spring/Ant-style: ``**`` spans any number of segments, ``*``/``{x}`` one; the API's own
    path parameters match any pattern segment."""
    if not pattern:
        return not api
    head = pattern[0]
    if head == "**":
        return any(_glob(pattern[1:], api[i:]) for i in range(len(api) + 1))
    if not api:
        return False
    if head == api[0] or _is_param(head) or head == "*" or _is_param(api[0]):
        return _glob(pattern[1:], api[1:])
    return False


def match_route(method: str | None, pattern: str | None, apis: Sequence[Api]) -> Api | None:
    """The callee's one HTTP API a gateway route pattern (``/owners/**``) covers; None when it
    covers none or several."""
    if not pattern:
        return None
    wanted = _segments(pattern)
    if wanted.count("**") > 2:
        return None  # keeps the backtracking small
    method = method.upper() if method else None
    found = sorted(
        {
            a.id: a
            for a in apis
            if a.kind == ApiKind.HTTP
            and not (method and a.method.upper() not in (method, "ANY", "ALL", "*"))
            and _glob(wanted, _segments(a.path))
        }.values(),
        key=lambda a: a.id,
    )
    return found[0] if len(found) == 1 else None


def _rpc_key(name: str) -> str:
    return name.replace("_", "").lower()  # GetStock = getStock (Java/JS stubs) = get_stock


def _grpc_parts(path: str) -> tuple[str, str, str]:
    """(first segment, service, rpc) of a gRPC path in any spelling the resolvers produce:
    ``pkg.Svc/Rpc``, ``/pkg.Svc/Rpc`` (wire form), ``Svc/Rpc``, ``pkg.Svc/Svc/Rpc`` (a method
    already written as ``Svc/Rpc`` prefixed with the proto service), or a bare ``Rpc``."""
    parts = [p for p in path.split("/") if p]
    if not parts:
        return "", "", ""
    return parts[0] if len(parts) > 1 else "", parts[-2] if len(parts) > 1 else "", parts[-1]


def match_grpc(method: str | None, path: str | None, apis: Sequence[Api]) -> Api | None:
    """The callee's rpc API for a call path: exactly, else by qualified service and rpc, else by
    simple service name and rpc (stubs spell rpcs ``getStock`` or ``GetStock``); None when
    absent or ambiguous."""
    if not path:
        return None
    grpc = [a for a in apis if a.kind == ApiKind.GRPC]
    exact = [a for a in grpc if a.path == path]
    if len(exact) == 1:
        return exact[0]
    first, svc, rpc = _grpc_parts(path)
    if not rpc:
        return None
    same_rpc = [
        (_grpc_parts(a.path)[1], a) for a in grpc if _rpc_key(_grpc_parts(a.path)[2]) == _rpc_key(rpc)
    ]
    services = {first, svc} - {""}
    if not services:
        return _only({a.id: a for _, a in same_rpc})
    found = {a.id: a for a_svc, a in same_rpc if a_svc in services}
    if not found:
        simple = {_simple(s) for s in services}
        found = {a.id: a for a_svc, a in same_rpc if _simple(a_svc) in simple}
    return _only(found)


def _only(found: dict[str, Api]) -> Api | None:
    return next(iter(found.values())) if len(found) == 1 else None


def _simple(service: str) -> str:
    return service.rsplit(".", 1)[-1]
