"""Gateway route tables as calls from the gateway: Spring Cloud Gateway routes, Netflix Zuul routes
(configured, and the default route to every service registered with discovery), nginx proxy_pass
and Apache httpd ProxyPass (``gatewayhttpd``), consul-template renderings of either included
(``gatewaytemplates``).

A call's path is what the callee sees: the route pattern after the gateway's path filters
(``gateways.paths``); the rewrite is kept as an evidence note.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence

from attrs import frozen

from orbitkb.analysis import paths
from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.config.spring import SpringProps
from orbitkb.analysis.facts import Env, Expr, Lit, Part
from orbitkb.analysis.gateways import templates as gatewaytemplates
from orbitkb.analysis.gateways.envoy import envoy_routes, is_envoy_config
from orbitkb.analysis.gateways.federation import SDL_SUFFIXES, federation_routes, is_federation_config
from orbitkb.analysis.gateways.httpd import httpd_routes, is_httpd_proxy
from orbitkb.analysis.gateways.kong import is_kong_config, kong_routes
from orbitkb.analysis.gateways.ocelot import is_ocelot_config, ocelot_routes
from orbitkb.analysis.gateways.paths import (
    FILTER_ARGS,
    PathFilter,
    apply_filters,
    nginx_downstream,
    shortcut_filter,
    strip_prefix,
)
from orbitkb.analysis.gateways.route import ConfigRoute
from orbitkb.analysis.gateways.traefik import file_routes, is_traefik_config, label_routes, label_sources
from orbitkb.analysis.gateways.yarp import is_yarp_config, yarp_routes
from orbitkb.analysis.layout.compose import ComposeService
from orbitkb.analysis.yamlines import load_all

_ROUTE_PREFIXES = (
    "spring.cloud.gateway.routes",
    "spring.cloud.gateway.server.webflux.routes",
    "spring.cloud.gateway.server.webmvc.routes",
    "spring.cloud.gateway.mvc.routes",
)
_ROUTE_URI = re.compile(r"^(?P<prefix>[\w.\-]+routes)\[(?P<i>\d+)\]\.uri$")
_INDEXED = re.compile(r"^\[(\d+)\](.*)$")
_ZUUL_ROUTE = re.compile(r"^zuul\.routes\.(?P<name>[^.\[]+)(?:\.(?P<attr>[\w\-]+))?$")
#: a linker's call site with this client stands for a discovery proxy (``@EnableZuulProxy``): one
#: route to each service registered with discovery, at ``/<service-id>/**``
DISCOVERY_PROXY = "discovery-proxy"
#: properties that say a service registers with a discovery server, and the ones that turn it off
_DISCOVERY_CLIENT = ("eureka.client.", "spring.cloud.consul.", "spring.cloud.zookeeper.")
_NOT_REGISTERED = (
    "eureka.client.register-with-eureka", "eureka.client.registerWithEureka", "eureka.client.enabled",
    "spring.cloud.discovery.enabled", "spring.cloud.consul.discovery.register",
)  # fmt: skip
_DISCOVERY_DEPS = ("eureka-client", "starter-eureka", "consul-discovery", "zookeeper-discovery")


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


_PROXY_SUFFIXES = (".conf", ".conf.template", ".ctmpl", ".tmpl")
_DECLARATIVE_SUFFIXES = (".yaml", ".yml", ".json", ".toml", *SDL_SUFFIXES)
#: declarative gateway configs: (server, is its config?, routes of a loaded YAML/JSON document)
DECLARATIVE = (
    ("envoy", is_envoy_config, envoy_routes),
    ("kong", is_kong_config, kong_routes),
    ("traefik", is_traefik_config, None),  # read by ``gatewaytraefik.file_routes`` (YAML or TOML)
    ("ocelot", is_ocelot_config, None),  # read by ``gatewayocelot.ocelot_routes`` (JSON with comments)
    ("yarp", is_yarp_config, None),  # read by ``gateways.yarp.yarp_routes`` (appsettings' ReverseProxy section)
    ("graphql-federation", is_federation_config, None),  # read by ``gatewayfederation.federation_routes``
)


def _declarative(path: str, text: str) -> str | None:
    """The gateway a YAML/JSON/TOML route config is written for, if it is one."""
    if not path.endswith(_DECLARATIVE_SUFFIXES):
        return None
    return next((server for server, detect, _ in DECLARATIVE if detect(text)), None)


def is_proxy_config(path: str, text: str) -> bool:
    """An nginx or Apache httpd config (or a template of one) that proxies requests somewhere, or
    an Envoy, Kong or Traefik route configuration."""
    name = path.rsplit("/", 1)[-1]
    if not (name == "nginx.conf" or name.endswith(_PROXY_SUFFIXES)):
        return _declarative(path, text) is not None
    return "proxy_pass" in text or "grpc_pass" in text or is_httpd_proxy(text)


def proxy_server(text: str, path: str = "") -> str:
    """The server a proxy config is written for: ``nginx``, ``apache-httpd``, ``envoy``, ``kong``, ``traefik``."""
    declarative = _declarative(path, text) if path else None
    if declarative:
        return declarative
    return "nginx" if "proxy_pass" in text or "grpc_pass" in text else "apache-httpd"


def config_route(route: ConfigRoute, file: str, client: str) -> RouteCall:
    return RouteCall(
        Expr.lit(route.url), route.path, file, route.line, client, route.kind, method=route.method, note=route.note
    )


def _declarative_routes(path: str, text: str, server: str) -> Iterator[RouteCall]:
    if server == "traefik":
        yield from (config_route(r, path, server) for r in file_routes(path, text))
        return
    if server == "ocelot":
        yield from (config_route(r, path, server) for r in ocelot_routes(text))
        return
    if server == "yarp":
        yield from (config_route(r, path, server) for r in yarp_routes(text))
        return
    if server == "graphql-federation":
        yield from (config_route(r, path, server) for r in federation_routes(path, text))
        return
    read = next(routes for name, _, routes in DECLARATIVE if name == server)
    try:
        docs = load_all(text)
    except Exception:  # noqa: BLE001 - an unreadable config has no routes (the layout still saw it)
        return
    for doc in docs:
        yield from (config_route(r, path, server) for r in read(doc))  # type: ignore[misc]


def mounted_config(conf: str, root: str, mounts: Iterable[str]) -> bool:
    """A proxy config outside a service's folder that its container mounts: the file itself, or a
    folder holding it that is neither the service's own folder nor one above it (``./:/app``)."""
    return any(
        conf == mount
        or (paths.is_under(conf, mount) and mount not in (".", "") and not paths.is_under(root, mount))
        for mount in mounts
    )


def compose_label_routes(proxy: ComposeService, compose: Sequence[ComposeService]) -> Iterator[RouteCall]:
    """The Traefik routers the containers next to a Traefik container declare in their labels."""
    seen: set[str] = set()
    for service in label_sources(proxy, compose):
        if service.name not in seen:
            seen.add(service.name)
            for route, where in label_routes(service.name, service.labels, service.ports):
                yield config_route(route, where, "traefik")


def proxy_routes(path: str, text: str, registered: Sequence[str] = (), own: str = "") -> Iterator[RouteCall]:
    """The routes of one proxy config; a consul-template is read as rendered for the services
    registered with discovery (the gateway itself left out)."""
    server = _declarative(path, text)
    if server is not None:
        yield from _declarative_routes(path, text, server)
        return
    renderings = [text]
    if gatewaytemplates.uses_discovery(text):
        renderings = gatewaytemplates.render(text, [r for r in registered if r != own])
    seen: set[RouteCall] = set()
    for rendering in renderings:
        found = list(nginx_routes(path, rendering))
        found += [
            RouteCall(url, call_path, path, line, "apache-httpd", note=note)
            for url, call_path, line, note in httpd_routes(rendering)
        ]
        for route in found:
            if route not in seen:
                seen.add(route)
                yield route


def _flag(value: ConfigValue | None) -> str:
    return value.value.strip().lower() if value is not None else ""


def _zuul_table(props: SpringProps) -> dict[str, dict[str, ConfigValue]]:
    """``zuul.routes.<name>.<attr>`` (attr ``path`` for the ``<name>: /path/**`` shorthand)."""
    out: dict[str, dict[str, ConfigValue]] = {}
    for value in props.items_with_prefix("zuul.routes."):
        match = _ZUUL_ROUTE.match(value.key)
        if match:
            attr = (match.group("attr") or "path").replace("-", "").lower()
            out.setdefault(match.group("name"), {})[attr] = value
    return out


def _zuul_downstream(pattern: str, strip: bool) -> str:
    """Zuul strips the pattern's literal prefix (``/api/orders/**`` forwards ``/**``) unless told not to."""
    if not strip:
        return pattern
    literal = [s for s in pattern.split("/") if s and "*" not in s and "{" not in s]
    return strip_prefix(pattern, len(literal))


def zuul_routes(props: SpringProps) -> Iterator[RouteCall]:
    """Configured Zuul routes: ``url`` to an address, ``serviceId`` (or the route's own name) to a
    discovered service."""
    strip_all = _flag(props.get("zuul.strip-prefix") or props.get("zuul.stripPrefix")) != "false"
    for name, attrs in sorted(_zuul_table(props).items()):
        url, service, path = attrs.get("url"), attrs.get("serviceid"), attrs.get("path")
        where: ConfigValue | None
        if url is not None and "://" in url.value:
            target, where = url.value.strip(), url
        elif service is not None or path is not None:
            where = service or path
            assert where is not None
            target = f"http://{(service.value if service else name).strip()}"
        else:
            continue
        pattern = path.value.strip() if path is not None else f"/{name}/**"
        strip = strip_all and _flag(attrs.get("stripprefix")) != "false"
        yield RouteCall(Expr.lit(target), _zuul_downstream(pattern, strip), where.file, where.line, "zuul")


def registers_with_discovery(props: SpringProps, deps: set[str]) -> bool:
    """A service registers with Eureka/Consul/ZooKeeper unless its properties turn registration off."""
    if any(_flag(props.get(key)) == "false" for key in _NOT_REGISTERED):
        return False
    keys = props.keys()
    return any(k.startswith(_DISCOVERY_CLIENT) for k in keys) or any(
        marker in dep for dep in deps for marker in _DISCOVERY_DEPS
    )


def discovery_routes(
    file: str, line: int, props: SpringProps, registered: list[str], own: str
) -> Iterator[RouteCall]:
    """A discovery proxy's default routes: ``/<service-id>/**`` to each registered service, unless
    ``zuul.ignored-services`` leaves it out (``'*'``: all of them) or a configured route names it."""
    ignored = {s.strip().lower() for s in _flag(props.get("zuul.ignored-services")).split(",") if s.strip()}
    if "*" in ignored:
        return
    table = _zuul_table(props)
    configured = {name.lower() for name in table}
    configured |= {a["serviceid"].value.strip().lower() for a in table.values() if "serviceid" in a}
    for name in registered:
        if name != own and name.lower() not in ignored and name.lower() not in configured:
            yield RouteCall(Expr.lit(f"http://{name}"), "/**", file, line, "zuul")
