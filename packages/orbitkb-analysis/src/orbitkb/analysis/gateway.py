"""Gateway route tables as calls from the gateway: Spring Cloud Gateway routes and nginx proxy_pass.

A call's path is what the callee sees: the route pattern after the gateway's path filters
(``gatewaypaths``); the rewrite is kept as an evidence note.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from attrs import frozen

from orbitkb.analysis.config.spring import SpringProps
from orbitkb.analysis.facts import Env, Expr, Lit, Part
from orbitkb.analysis.gatewaypaths import (
    FILTER_ARGS,
    PathFilter,
    apply_filters,
    nginx_downstream,
    shortcut_filter,
)

_ROUTE_PREFIXES = (
    "spring.cloud.gateway.routes",
    "spring.cloud.gateway.server.webflux.routes",
    "spring.cloud.gateway.server.webmvc.routes",
    "spring.cloud.gateway.mvc.routes",
)
_ROUTE_URI = re.compile(r"^(?P<prefix>[\w.\-]+routes)\[(?P<i>\d+)\]\.uri$")
_INDEXED = re.compile(r"^\[(\d+)\](.*)$")


@frozen
class RouteCall:
    url: Expr
    path: str | None  # the path the callee sees: the route's pattern after its path filters
    file: str
    line: int
    client: str
    kind: str = "http"
    method: str | None = None  # a route limited to one HTTP method (Method=GET)
    note: str | None = None  # how the gateway rewrote the path, when it did


def _filters(props: SpringProps, base: str) -> list[PathFilter]:
    """Path filters under ``base`` (``...routes[0].filters`` / ``...default-filters``), in order."""
    by_index: dict[int, dict[str, str]] = {}
    for value in props.items_with_prefix(base + "["):
        match = _INDEXED.match(value.key[len(base) :])
        if match:
            by_index.setdefault(int(match.group(1)), {})[match.group(2)] = value.value
    out: list[PathFilter] = []
    for _, entry in sorted(by_index.items()):
        if "" in entry:  # shortcut form: - StripPrefix=2
            found = shortcut_filter(entry[""])
        else:  # name/args form: args named (parts: 2) or generated (_genkey_0: 2)
            name = entry.get(".name", "").strip()
            args = {k[len(".args.") :]: v for k, v in entry.items() if k.startswith(".args.")}
            names = FILTER_ARGS.get(name, ())
            named = [args[n] for n in names if n in args]
            found = PathFilter(name, tuple(named or [args[k] for k in sorted(args)])) if names else None
        if found is not None:
            out.append(found)
    return out


def spring_routes(props: SpringProps) -> Iterator[RouteCall]:
    for key in props.keys():
        match = _ROUTE_URI.match(key)
        if not match or not match.group("prefix").startswith(_ROUTE_PREFIXES):
            continue
        uri = props.get(key)
        if uri is None or not uri.value.strip():
            continue
        route = f"{match.group('prefix')}[{match.group('i')}]"
        base = f"{route}.predicates"
        found: dict[str, str] = {}
        for pred in props.items_with_prefix(base):
            text = pred.value.strip()
            if pred.key.endswith("]") and "=" in text:  # shortcut form: Path=/a/**,/b/**
                name, _, args = text.partition("=")
                found.setdefault(name.strip(), args)
            elif ".args." in pred.key:  # expanded form: name: Path, args: {pattern: ...}
                name_value = props.get(pred.key.rsplit(".args", 1)[0] + ".name")
                if name_value is not None:
                    found.setdefault(name_value.value.strip(), text)
        path = found["Path"].split(",")[0].strip() if "Path" in found else None
        methods = [m.strip().upper() for m in found.get("Method", "").split(",") if m.strip()]
        note = None
        if path:
            defaults = _filters(props, match.group("prefix").removesuffix("routes") + "default-filters")
            down, applied = apply_filters(path, [*defaults, *_filters(props, f"{route}.filters")])
            if applied:
                note = f"route Path={path} {' '.join(applied)} forwarded as {down}"
                path = down
        yield RouteCall(
            Expr.lit(uri.value.strip()), path, uri.file, uri.line, "spring-cloud-gateway",
            method=methods[0] if len(methods) == 1 else None, note=note,
        )  # fmt: skip


_TOKEN = re.compile(
    r"#[^\n]*|\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[{};]|(?:\$\{[^}\s]*\}|[^\s{};\"'#])+|\n"
)
_NGINX_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _nginx_statements(text: str) -> Iterator[tuple[list[str], str, int]]:
    """(words, terminator "{" | ";" | "}", line) for every statement."""
    words: list[str] = []
    line = 1
    start = 1
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token == "\n":
            line += 1
        elif token.startswith("#"):
            continue
        elif token in ("{", ";", "}"):
            yield words, token, start
            words = []
        else:
            if not words:
                start = line
            words.append(token.strip("\"'"))


def _url_expr(url: str, variables: dict[str, str]) -> Expr:
    parts: list[Part] = []
    pos = 0
    for match in _NGINX_VAR.finditer(url):
        if match.start() > pos:
            parts.append(Lit(url[pos : match.start()]))
        name = match.group(1) or match.group(2)
        if match.group(2) and name in variables:
            parts.append(Lit(variables[name]))
        else:
            parts.append(Env(name))  # envsubst templates (nginx image's /etc/nginx/templates)
        pos = match.end()
    if pos < len(url):
        parts.append(Lit(url[pos:]))
    return Expr(tuple(parts))


def nginx_routes(path: str, text: str) -> Iterator[RouteCall]:
    upstreams: dict[str, list[str]] = {}
    variables: dict[str, str] = {}
    stack: list[list[str]] = []
    passes: list[tuple[list[str] | None, str, int, str]] = []
    for words, end, line in _nginx_statements(text):
        if end == "{":
            stack.append(words)
        elif end == "}":
            if stack:
                stack.pop()
        elif words:
            head = words[0]
            upstream = next((b[1] for b in reversed(stack) if b[:1] == ["upstream"] and len(b) > 1), None)
            if head == "server" and upstream and len(words) > 1:
                upstreams.setdefault(upstream, []).append(words[1])
            elif head == "set" and len(words) > 2:
                variables[words[1].lstrip("$")] = words[2]
            elif head in ("proxy_pass", "grpc_pass") and len(words) > 1:
                location = next(
                    (b[1:] for b in reversed(stack) if b[:1] == ["location"] and len(b) > 1), None
                )
                passes.append((location, words[1], line, "grpc" if head == "grpc_pass" else "http"))
    for location, url, line, kind in passes:
        literal = _url_expr(url, variables).literal()
        if kind == "http":
            call_path, note = nginx_downstream(location or [], literal or url)
        else:
            call_path, note = (location[-1] if location else None), None
        scheme, _, rest = url.partition("://")
        host = re.split(r"[/:]", rest, maxsplit=1)[0] if rest else ""
        targets = [url]
        if host in upstreams:
            tail = rest[len(host) :]
            targets = [f"{scheme}://{server}{tail}" for server in upstreams[host]]
        for target in targets:
            yield RouteCall(_url_expr(target, variables), call_path, path, line, "nginx", kind, note=note)
