"""Traefik routers as gateway routes: Docker labels on compose services
(``traefik.http.routers.<r>.rule=PathPrefix(`/x`)``, the v1 ``traefik.frontend.rule``) and the
file provider (``http: routers / services / middlewares`` in YAML or TOML).

A router forwards to its service: a labelled container itself (at its
``loadbalancer.server.port``) or the file provider's ``loadBalancer.servers`` URLs. The
``stripPrefix``, ``addPrefix`` and ``replacePath`` middlewares change the path the callee sees.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from attrs import define, field

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.gateways.paths import normalize
from orbitkb.analysis.gateways.route import ConfigRoute, forwarded, prefix_pattern
from orbitkb.analysis.yamlines import LDict, load_all

SERVER = "traefik"
_MATCHER = re.compile(r"\b(PathPrefix|Path|PathRegexp|Method)\s*\(([^)]*)\)")
_ARG = re.compile(r"`([^`]*)`|\"([^\"]*)\"|'([^']*)'")
_V1_RULE = re.compile(r"(PathPrefixStrip|PathPrefix|PathStrip|Path|Method)\s*:\s*([^;]+)")


@define
class Router:
    rule: str
    line: int
    service: str | None = None
    middlewares: list[str] = field(factory=list)


@define
class Table:
    """One provider's routers, services (name -> URLs) and path middlewares (name -> (kind, args))."""

    routers: dict[str, Router] = field(factory=dict)
    services: dict[str, list[str]] = field(factory=dict)
    middlewares: dict[str, tuple[str, list[str]]] = field(factory=dict)


def is_traefik_config(text: str) -> bool:
    return "routers" in text and "rule" in text and ("loadBalancer" in text or "loadbalancer" in text)


def _matchers(rule: str) -> tuple[list[tuple[str, str]], list[str]]:
    """([(kind, path)], methods) of a v2/v3 rule, or of a v1 ``PathPrefixStrip:/a,/b`` rule."""
    found: list[tuple[str, str]] = []
    methods: list[str] = []
    for name, args in _MATCHER.findall(rule):
        values = [a or b or c for a, b, c in _ARG.findall(args)]
        if name == "Method":
            methods += [v.upper() for v in values]
        else:
            found += [(name, v) for v in values]
    if not found and not methods:
        for name, args in _V1_RULE.findall(rule):
            values = [v.strip() for v in args.split(",") if v.strip()]
            if name == "Method":
                methods += [v.upper() for v in values]
            else:
                found += [(name, v) for v in values]
    return found, methods


def _downstream(kind: str, path: str, table: Table, middlewares: Sequence[str]) -> tuple[str | None, str | None]:
    if kind == "PathRegexp":
        return path, None
    pattern = prefix_pattern(path) if kind.startswith("PathPrefix") else normalize(path)
    down = pattern
    if kind.endswith("Strip"):  # v1: the matched prefix is removed
        down = prefix_pattern("/") if kind == "PathPrefixStrip" else "/"
    for name in middlewares:
        what, args = table.middlewares.get(name.split("@", 1)[0], ("", []))
        if what == "strip":
            for prefix in sorted(args, key=len, reverse=True):
                literal = normalize(prefix)
                if down == literal or down.startswith(literal.rstrip("/") + "/"):
                    down = normalize(down[len(literal.rstrip("/")) :])
                    break
        elif what == "add" and args:
            down = normalize(args[0] + "/" + down)
        elif what == "replace" and args:
            down = normalize(args[0])
    return forwarded(pattern, down, "router")


def table_routes(table: Table) -> Iterator[ConfigRoute]:
    for name, router in sorted(table.routers.items()):
        if (router.service or "").endswith("@internal"):
            continue  # Traefik's own dashboard or API
        urls = table.services.get((router.service or name).split("@", 1)[0], [])
        matchers, methods = _matchers(router.rule)
        method = methods[0] if len(methods) == 1 else None
        for kind, path in matchers or [("PathPrefix", "/")]:
            call_path, note = _downstream(kind, path, table, router.middlewares)
            for url in urls:
                yield ConfigRoute(url, call_path, router.line, note, method)


# --------------------------------------------------------------------------- file provider


def _lower(node: Any) -> dict[str, Any]:
    return {str(k).lower(): v for k, v in node.items()} if isinstance(node, dict) else {}


def _middleware(spec: Any) -> tuple[str, list[str]] | None:
    spec = _lower(spec)
    strip = _lower(spec.get("stripprefix"))
    if strip:
        return "strip", [str(p) for p in strip.get("prefixes") or []]
    add = _lower(spec.get("addprefix"))
    if add.get("prefix"):
        return "add", [str(add["prefix"])]
    replace = _lower(spec.get("replacepath"))
    if replace.get("path"):
        return "replace", [str(replace["path"])]
    return None


def file_table(text: str, toml: bool = False) -> Table:
    """The ``http`` section of a dynamic configuration file."""
    if toml:
        try:
            docs: list[Any] = [tomllib.loads(text)]
        except tomllib.TOMLDecodeError:
            return Table()
    else:
        try:
            docs = load_all(text)
        except Exception:  # noqa: BLE001 - any YAML failure leaves the file without routes
            return Table()
    table = Table()
    for doc in docs:
        http = _lower(_lower(doc).get("http"))
        routers = http.get("routers")
        for name, spec in (routers.items() if isinstance(routers, dict) else []):
            spec = _lower(spec)
            if not isinstance(spec.get("rule"), str):
                continue
            line = routers.line(name) if isinstance(routers, LDict) else _line_of(text, name)
            mws: list[Any] = spec["middlewares"] if isinstance(spec.get("middlewares"), list) else []
            table.routers[name] = Router(spec["rule"], line, spec.get("service"), [str(m) for m in mws])
        services = http.get("services")
        for name, spec in (services.items() if isinstance(services, dict) else []):
            balancer = _lower(_lower(spec).get("loadbalancer"))
            urls = [_lower(s).get("url") for s in balancer.get("servers") or []]
            table.services[name] = [str(u) for u in urls if u]
        middlewares = http.get("middlewares")
        for name, spec in (middlewares.items() if isinstance(middlewares, dict) else []):
            found = _middleware(spec)
            if found:
                table.middlewares[name] = found
    return table


def _line_of(text: str, name: str) -> int:
    """TOML keeps no lines: the first line naming the router."""
    for number, line in enumerate(text.splitlines(), start=1):
        if f"routers.{name}]" in line or f"routers.{name}." in line:
            return number
    return 1


def file_routes(path: str, text: str) -> Iterator[ConfigRoute]:
    yield from table_routes(file_table(text, toml=path.endswith(".toml")))


# --------------------------------------------------------------------------- docker labels

_ROUTER_LABEL = re.compile(r"^traefik\.http\.routers\.([^.]+)\.(rule|service|middlewares)$", re.I)
_PORT_LABEL = re.compile(r"^traefik\.http\.services\.([^.]+)\.loadbalancer\.server\.port$", re.I)
_MIDDLEWARE_LABEL = re.compile(
    r"^traefik\.http\.middlewares\.([^.]+)\.(stripprefix\.prefixes|addprefix\.prefix|replacepath\.path)$", re.I
)


def has_router_labels(labels: Mapping[str, ConfigValue]) -> bool:
    return any(k.lower().startswith(("traefik.http.routers.", "traefik.frontend.rule")) for k in labels)


def label_sources(proxy: Any, compose: Sequence[Any]) -> list[Any]:
    """The compose services whose labels a Traefik container reads: the labelled ones of its own
    compose file, else (a Traefik run on its own, sharing a network with other compose projects)
    every labelled one of the repository. Its own labels (its dashboard) do not count."""
    labelled = [c for c in compose if has_router_labels(c.labels) and c is not proxy and c.name != proxy.name]
    own = [c for c in labelled if c.file == proxy.file]
    return own or labelled


def label_routes(name: str, labels: Mapping[str, ConfigValue], ports: Sequence[int]) -> Iterator[tuple[ConfigRoute, str]]:
    """(route, file) for the routers one compose service declares on itself."""
    if labels.get("traefik.enable") is not None and labels["traefik.enable"].value.strip().lower() == "false":
        return
    table = Table()
    files: dict[str, str] = {}
    own_port: dict[str, str] = {}
    for key, value in labels.items():
        if (m := _ROUTER_LABEL.match(key)) is not None:
            router = table.routers.setdefault(m.group(1), Router("", value.line))
            files[m.group(1)] = value.file
            attr = m.group(2).lower()
            if attr == "rule":
                router.rule, router.line = value.value, value.line
            elif attr == "service":
                router.service = value.value.strip()
            else:
                router.middlewares = [w.strip() for w in value.value.split(",") if w.strip()]
        elif (m := _PORT_LABEL.match(key)) is not None:
            own_port[m.group(1)] = value.value.strip()
        elif (m := _MIDDLEWARE_LABEL.match(key)) is not None:
            kind = {"stripprefix.prefixes": "strip", "addprefix.prefix": "add", "replacepath.path": "replace"}
            table.middlewares[m.group(1)] = (kind[m.group(2).lower()], [v.strip() for v in value.value.split(",")])
    v1 = labels.get("traefik.frontend.rule")
    if v1 is not None:
        table.routers["frontend"] = Router(v1.value, v1.line)
        files["frontend"] = v1.file
        port_label = labels.get("traefik.port")
        if port_label is not None:
            own_port["frontend"] = port_label.value.strip()
    default_port = next(iter(own_port.values()), None) if len(own_port) == 1 else None
    for router_name, router in table.routers.items():
        service = router.service.split("@", 1)[0] if router.service else None
        port = own_port.get(service or "") or own_port.get(router_name) or default_port
        if port is None and ports:
            port = str(ports[-1])
        table.services[service or router_name] = [f"http://{name}:{port}" if port else f"http://{name}"]
    for route in table_routes(Table({k: v for k, v in table.routers.items() if v.rule}, table.services, table.middlewares)):
        router_file = next((files[r] for r, v in table.routers.items() if v.line == route.line), "")
        yield route, router_file
