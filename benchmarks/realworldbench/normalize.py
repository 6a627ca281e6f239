"""How names, paths, channels and vendors are compared: tolerant of spelling, strict on meaning."""

from __future__ import annotations

import re

_PARAM = re.compile(r"^(\{.*\}|:.+|<.+>|\*{1,2}\w*|\$\{.*\}|\[.+\])$")  # *name: a named catch-all


def name(text: str) -> str:
    """Service and entity names: case and separators do not matter."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def path(method: str, text: str) -> str:
    """An HTTP path with parameters as ``{}`` and no trailing slash; a gRPC path as service/method."""
    if method.upper() == "RPC":
        service, _, rpc = text.rpartition("/")
        return f"{service.rsplit('.', 1)[-1].lower()}/{rpc.lower()}"
    text = text.split("?", 1)[0]
    parts = [p for p in text.strip().split("/") if p]
    parts = ["{}" if _PARAM.match(p) else p.lower() for p in parts]
    return "/" + "/".join(parts)


def channel(text: str) -> str:
    return text.strip().lower()


def vendor(text: str) -> str:
    v = name(text)
    for suffix in ("api", "apis"):
        if v.endswith(suffix) and len(v) > len(suffix) + 2:
            v = v[: -len(suffix)]
    return v


ENGINE_ALIASES = {"postgresql": "postgres", "pg": "postgres", "mongo": "mongodb", "valkey": "redis",
                  "mssql": "sqlserver", "elastic": "elasticsearch", "opensearch": "elasticsearch"}


def engine(text: str) -> str:
    e = text.strip().lower()
    return ENGINE_ALIASES.get(e, e)
