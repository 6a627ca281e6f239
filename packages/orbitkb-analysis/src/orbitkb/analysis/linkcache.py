"""Caching a service's LinkedFacts: JSON encoding and the key that says "nothing changed".

The key covers everything ``link`` sees — analyzer stack and version, the ServiceContext and every
(path, content hash) passed — so an unchanged service is neither decoded nor linked again. This is
what keeps a no-change re-index fast when linking is the expensive part.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

import attrs

from orbitkb.analysis.facts import (
    Expr,
    LinkedFacts,
    ParseGap,
    RawApi,
    RawCall,
    RawComponent,
    RawEntity,
    RawMessage,
    ServiceContext,
    expr_from_json,
    expr_to_json,
)

FORMAT = "3"  # bump when this encoding changes (3: the vocabulary with counts)
_LISTS = {
    "components": RawComponent,
    "apis": RawApi,
    "calls": RawCall,
    "messages": RawMessage,
    "entities": RawEntity,
    "gaps": ParseGap,
}
_EXPR_FIELDS = {"url", "channel"}


def link_key(stack: str, version: str, ctx: ServiceContext, files: Iterable[tuple[str, str]]) -> str:
    h = hashlib.sha256()
    for part in (FORMAT, stack, version, ctx.name, ctx.root_dir, ctx.stack, ctx.repository):
        h.update(part.encode("utf-8", "surrogatepass") + b"\x1f")
    for path, sha in sorted(files):
        h.update(f"{path}\x1e{sha}\x1f".encode("utf-8", "surrogatepass"))
    for command in ctx.commands:
        h.update(("\x1d" + "\x1e".join(command) + "\x1f").encode("utf-8", "surrogatepass"))
    h.update(("\x1c" + "\x1e".join(ctx.dependencies) + "\x1f").encode("utf-8", "surrogatepass"))
    return f"link:{stack}:{version}:{h.hexdigest()}"


def _encode(value: Any) -> Any:
    if isinstance(value, Expr):
        return {"$expr": expr_to_json(value)}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "$expr" in value:
        return expr_from_json(value["$expr"])
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    return value


def dumps(facts: LinkedFacts) -> str:
    out: dict[str, Any] = {}
    for name, cls in _LISTS.items():
        out[name] = [
            {f.name: _encode(getattr(item, f.name)) for f in attrs.fields(cls)}
            for item in getattr(facts, name)
        ]
    out["grpc_implements"] = list(facts.grpc_implements)
    out["framework"] = facts.framework
    out["properties"] = dict(facts.properties)
    out["vocabulary"] = [list(pair) for pair in facts.vocabulary]
    return json.dumps(out, separators=(",", ":"), sort_keys=True)


def loads(text: str) -> LinkedFacts:
    data = json.loads(text)
    kwargs: dict[str, Any] = {}
    for name, cls in _LISTS.items():
        items = []
        for raw in data.get(name, []):
            values = {
                k: (_decode(v) if k not in _EXPR_FIELDS or isinstance(v, dict) else v) for k, v in raw.items()
            }
            items.append(cls(**values))
        kwargs[name] = tuple(items)
    return LinkedFacts(
        grpc_implements=tuple(data.get("grpc_implements", [])),
        framework=data.get("framework"),
        properties=dict(data.get("properties", {})),
        vocabulary=tuple((str(w), int(n)) for w, n in data.get("vocabulary", [])),
        **kwargs,
    )
