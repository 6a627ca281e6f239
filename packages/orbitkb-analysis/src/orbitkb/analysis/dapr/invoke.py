"""Service invocation through the sidecar, rewritten as a call to the invoked app id.

``http://localhost:3500/v1.0/invoke/orders/method/items`` and a call to the sidecar carrying a
``dapr-app-id: orders`` header both reach ``/items`` of the app ``orders``: the URL becomes
``http://orders/items``, so the ordinary resolver finds the service by its app id (an alias).
The app id may be any expression (an environment variable with a default, a constant).
"""

from __future__ import annotations

from orbitkb.analysis.facts import Expr, Lit, Part

MARKER = "/v1.0/invoke/"
HEADER = "dapr-app-id"
_METHOD = "/method"


def _split_first_slash(parts: list[Part]) -> tuple[list[Part], list[Part]]:
    """(parts before the first "/" of a literal, parts from it on)."""
    for i, part in enumerate(parts):
        if isinstance(part, Lit) and "/" in part.text:
            cut = part.text.index("/")
            head = [*parts[:i], Lit(part.text[:cut])] if cut else parts[:i]
            return head, [Lit(part.text[cut:]), *parts[i + 1 :]]
    return parts, []


def _url(app: list[Part], path: list[Part]) -> Expr:
    merged: list[Part] = []
    for part in [Lit("http://"), *app, *path]:
        if isinstance(part, Lit) and merged and isinstance(merged[-1], Lit):
            merged[-1] = Lit(merged[-1].text + part.text)
        elif not (isinstance(part, Lit) and not part.text):
            merged.append(part)
    return Expr(tuple(merged))


def sidecar_url(url: Expr | None) -> Expr | None:
    """The invoked app's URL for a ``/v1.0/invoke/<app-id>/method/<path>`` URL, else None."""
    if url is None:
        return None
    for i, part in enumerate(url.parts):
        if isinstance(part, Lit) and MARKER in part.text:
            after = part.text.split(MARKER, 1)[1]
            app, path = _split_first_slash([Lit(after), *url.parts[i + 1 :]])
            if path and isinstance(path[0], Lit) and path[0].text.startswith(_METHOD):
                rest = path[0].text[len(_METHOD) :]
                if not rest or rest[0] in "/?":
                    path = [Lit(rest), *path[1:]]
            if not any(not isinstance(p, Lit) or p.text for p in app):
                return None  # /v1.0/invoke/ with no app id written
            return _url(app, path)
    return None


def via_app_id(url: Expr | None, app: Expr) -> Expr:
    """A call to the sidecar (``http://localhost:3500/items``) with a ``dapr-app-id`` header: the
    same path on the app the header names."""
    parts = list(url.parts) if url is not None else []
    if parts and isinstance(parts[0], Lit) and "://" in parts[0].text:
        parts[0] = Lit(parts[0].text.split("://", 1)[1])
        _, path = _split_first_slash(parts)
    elif parts and isinstance(parts[0], Lit) and parts[0].text.startswith("/"):
        path = parts  # a path alone: the sidecar's address is set on the client
    else:
        _, path = _split_first_slash(parts)
    return _url(list(app.parts), path)
