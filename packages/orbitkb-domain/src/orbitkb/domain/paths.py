"""HTTP path matching across frameworks' parameter spellings: {id}, :id, <int:id>, ${expr}."""

from __future__ import annotations

import re

#: a parameter inside a segment, in any framework's spelling: ${expr}, {id}, {id:int}, <int:id>,
#: :id (optionally :id?), or a bare wildcard segment
_PARAM = re.compile(r"\$\{[^}]*\}|\{[^}]*\}|<[^>]*>|^:[A-Za-z_][A-Za-z0-9_]*\??$|^\*[A-Za-z0-9_]*$")


def is_param(segment: str) -> bool:
    return segment.startswith((":", "{", "<", "${", "*")) or segment.endswith(("}", ">"))


def same_path(declared: str, used: str) -> bool:
    """``/orders/{id}`` matches ``/orders/42`` and ``/orders/:orderId``; literal segments must agree."""
    a, b = declared.strip().rstrip("/") or "/", used.strip().rstrip("/") or "/"
    if a == b:
        return True
    pa, pb = a.split("/"), b.split("/")
    if len(pa) != len(pb):
        return False
    return all(x == y or is_param(x) or is_param(y) for x, y in zip(pa, pb))


def path_key(path: str) -> str:
    """One spelling per route: ``/orders/{id}``, ``/orders/:orderId/`` and ``orders/<int:id>`` all
    read ``/orders/{}``. Literal segments are kept as written; a query string is dropped."""
    p = path.strip().split("?", 1)[0].strip("/")
    return "/" + "/".join(_PARAM.sub("{}", seg) for seg in p.split("/")) if p else "/"
