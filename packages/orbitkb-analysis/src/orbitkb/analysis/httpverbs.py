"""HTTP methods as the analyzers' signature tables spell them, shared by every language."""

from __future__ import annotations

from collections.abc import Iterable

#: the methods a route or a client call can name, upper-case as on the wire
HTTP_METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")


def titled(methods: Iterable[str] = HTTP_METHODS) -> dict[str, str]:
    """``{"Get": "GET", ...}``: annotations, attributes and types named by a title-case method."""
    return {method.title(): method for method in methods}
