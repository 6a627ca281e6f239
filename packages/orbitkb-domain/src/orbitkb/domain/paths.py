"""HTTP path matching across frameworks' parameter spellings: {id}, :id, <int:id>, ${expr}."""

from __future__ import annotations


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
