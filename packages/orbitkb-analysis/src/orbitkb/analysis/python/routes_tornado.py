"""Tornado routes: the ``(pattern, Handler[, kwargs])`` / ``url(pattern, Handler)`` rules given to
``tornado.web.Application(...)`` or ``add_handlers(host, rules)``, served by the HTTP-named
methods of each ``RequestHandler`` (``get``, ``post``...). Patterns are regular expressions:
anchors go, groups become parameters (``(?P<id>\\d+)`` -> ``{id}``, ``([^/]+)`` -> ``{p1}``)."""

from __future__ import annotations

from orbitkb.analysis.python.ir import Node, items, lit, literal
from orbitkb.analysis.python.linkctx import Inv, LinkState
from orbitkb.analysis.python.routing import PendingRoute, class_routes

FRAMEWORK = "tornado"
APPLICATIONS = frozenset({"tornado.web.Application"})
RULES = frozenset(
    {"tornado.web.url", "tornado.web.URLSpec", "tornado.routing.URLSpec", "tornado.routing.Rule"}
)


def collect(st: LinkState) -> list[PendingRoute]:
    if "tornado" not in st.libs:
        return []
    out: list[PendingRoute] = []
    for inv in st.invs:
        c = inv.callee
        if c["t"] == "ext" and c["q"] in APPLICATIONS:
            rules = inv.arg(0, "handlers")
        elif c["t"] == "bm" and c["n"] == "add_handlers":
            rules = inv.arg(1, "host_handlers")
        else:
            continue
        for rule in items(rules):
            out.extend(_rule(st, inv, rule))
    return out


def _rule(st: LinkState, inv: Inv, rule: Node) -> list[PendingRoute]:
    if rule["t"] == "list" and len(rule["v"]) >= 2:
        pattern, handler = rule["v"][0], rule["v"][1]
    elif rule["t"] == "inst" and rule["c"]["t"] == "ext" and rule["c"]["q"] in RULES:
        args = rule["a"]
        pattern = args[0] if args else rule["k"].get("pattern") or rule["k"].get("matcher")
        handler = args[1] if len(args) > 1 else rule["k"].get("handler") or rule["k"].get("target")
    else:
        return []
    text = literal(pattern) if pattern is not None else None
    if text is None or handler is None or handler["t"] != "cls":
        return []
    site = (inv.path, inv.line, inv.end)
    return class_routes(
        st, "tornado", lit(regex_path(text)), handler["p"], handler["n"], FRAMEWORK, None, site
    )


def regex_path(pattern: str) -> str:
    """A URL regex as a path template: ``^/items/(?P<id>[0-9]+)/?$`` -> ``/items/{id}``."""
    text = pattern.lstrip("^").rstrip("$")
    out: list[str] = []
    i, n = 0, 0
    while i < len(text):
        ch = text[i]
        if ch == "\\" and i + 1 < len(text):
            out.append(text[i + 1])
            i += 2
            continue
        if ch == "(":
            end, depth = i, 0
            while end < len(text):
                if text[end] == "\\":
                    end += 2
                    continue
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                if depth == 0:
                    break
                end += 1
            group = text[i + 1 : end]
            n += 1
            name = group[3 : group.index(">")] if group.startswith("?P<") and ">" in group else f"p{n}"
            out.append("{" + name + "}")
            i = end + 1
            if i < len(text) and text[i] in "?*+":
                i += 1
            continue
        if ch in "?*+" and out and out[-1] == "/":
            out.pop()  # an optional trailing slash
        elif ch not in "?*+":
            out.append("{path}" if text[i : i + 2] == ".*" else ch)
            if text[i : i + 2] == ".*":
                i += 1
        i += 1
    return "".join(out) or "/"
