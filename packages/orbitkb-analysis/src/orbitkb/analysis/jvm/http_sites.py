"""Outbound HTTP and gRPC call sites: RestTemplate, WebClient/RestClient, JDK/OkHttp/Apache, Ktor, gRPC
stubs, generated API clients given a base URL (Kiota, OpenAPI Generator), Spring Cloud Gateway ProxyExchange."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.analysis.httpverbs import HTTP_METHODS
from orbitkb.analysis.jvm.evaluate import Parts, Scope, concat, dotted, evaluate, lit, literal_text
from orbitkb.analysis.jvm.syntax import Call, E, Lam, Name, walk
from orbitkb.analysis.jvm.tables import (
    BASE_URL_SETTERS,
    FLUENT_CLIENT_TYPES,
    FLUENT_VERBS,
    GATEWAY_IMPORT,
    GATEWAY_PREDICATES,
    GRPC_STUB_FACTORIES,
    JAXRS_CLIENT_IMPORTS,
    JAXRS_CLIENT_TYPES,
    JDK_VERBS,
    KTOR_CLIENT_IMPORT,
    KTOR_VERBS,
    PROXY_EXCHANGE_TYPES,
    PROXY_EXCHANGE_VERBS,
    REQUEST_OBJECTS,
    REST_TEMPLATE,
    REST_TEMPLATE_DISTINCT,
    REST_TEMPLATE_TYPES,
)

if TYPE_CHECKING:
    from orbitkb.analysis.jvm.walking import Walker

_HTTP = frozenset(HTTP_METHODS)
_FACTORY_TYPES = {
    "WebClient": "WebClient",
    "RestClient": "RestClient",
    "ManagedChannelBuilder": "ManagedChannel",
    "NettyChannelBuilder": "ManagedChannel",
    "Grpc": "ManagedChannel",
    "RestTemplateBuilder": "RestTemplate",
}


def chain(call: Call) -> list[Call]:
    """``a.b().c().d()`` seen from ``d``: [d, c, b] (outermost first)."""
    out = [call]
    cur = call.recv
    while isinstance(cur, Call):
        out.append(cur)
        cur = cur.recv
    return out


def infer_type(e: E | None) -> str:
    """The type a Kotlin ``val``/Java ``var`` gets from its initializer, when it is obvious."""
    if not isinstance(e, Call):
        return ""
    segs = chain(e)
    inner = segs[-1]
    if inner.new_ and inner.recv is None:
        return inner.name
    root = dotted(inner.recv) if inner.recv is not None else None
    if root in _FACTORY_TYPES:
        return _FACTORY_TYPES[root]
    if root is not None and root.endswith("Grpc") and inner.name in GRPC_STUB_FACTORIES:
        return "GrpcStub"
    return ""


def chain_target(e: E | None, scope: Scope) -> Parts | None:
    """Address set in a builder chain: baseUrl/rootUri(x), forAddress(h, p), forTarget(x), create(x)."""
    if not isinstance(e, Call):
        return None
    for seg in reversed(chain(e)):
        name, args = seg.name, seg.args
        if name in ("baseUrl", "rootUri", "forTarget") and args:
            return evaluate(args[0], scope)
        if name == "forAddress" and len(args) >= 2:
            return concat(evaluate(args[0], scope), lit(":"), evaluate(args[1], scope))
        if name == "create" and args and seg.recv is not None and dotted(seg.recv) in FLUENT_CLIENT_TYPES:
            return evaluate(args[0], scope)
        if name == "newChannelBuilder" and args:
            return evaluate(args[0], scope)
    return None


def detect(w: Walker, call: Call) -> None:
    if call.name in REST_TEMPLATE:
        _rest_template(w, call)
    if call.name in GRPC_STUB_FACTORIES or call.name.endswith("CoroutineStub"):
        _grpc_stub(w, call)
    if call.name in BASE_URL_SETTERS and len(call.args) == 1 and call.recv is not None:
        if w.recv_type(call.recv) in BASE_URL_SETTERS[call.name]:
            _site(w, call, "generated-client", None, evaluate(call.args[0], w.scope), None)
    if call.name == "target" and len(call.args) == 1 and _jaxrs_client(w, call):
        _site(w, call, "jaxrs-client", None, evaluate(call.args[0], w.scope), None)
    if call.name in KTOR_VERBS and call.args and call.recv is not None and _ktor_client(w, call):
        _site(w, call, "ktor", KTOR_VERBS[call.name], _ktor_url(w, call.args), None)
    if call.new_ and call.name in REQUEST_OBJECTS and call.args:
        _site(w, call, "apache-httpclient", REQUEST_OBJECTS[call.name], evaluate(call.args[0], w.scope), None)
    if id(call) not in w.in_chain and isinstance(call.recv, Call):
        segs = chain(call)
        w.in_chain.update(id(s) for s in segs[1:])
        if not _gateway_route(w, segs):
            _fluent(w, segs)


def _jaxrs_client(w: Walker, call: Call) -> bool:
    """Jakarta/JAX-RS client API: ``client.target(url)`` on a ``Client`` (declared, or straight from
    ``ClientBuilder``), in a file importing the client package."""
    if not any(i.startswith(JAXRS_CLIENT_IMPORTS) for i in w.ctx.imports):
        return False
    root = chain(call)[-1]
    if root is not call and dotted(root.recv) == "ClientBuilder":
        return True
    return w.recv_type(call.recv) in JAXRS_CLIENT_TYPES


def _ktor_client(w: Walker, call: Call) -> bool:
    """A Ktor ``HttpClient`` receiver: declared so, or named for a client (``client``, ``http.getClient()``)
    in a file importing Ktor's client; ``map.get(key)`` names no client."""
    if not any(i.startswith(KTOR_CLIENT_IMPORT) for i in w.ctx.imports):
        return False
    recv = call.recv
    if w.recv_type(recv) == "HttpClient":
        return True
    name = recv.name if isinstance(recv, Call) else dotted(recv) or ""
    return "client" in name.rsplit(".", 1)[-1].lower()


def _ktor_url(w: Walker, args: list[E]) -> Parts | None:
    """The URL argument, or ``url(..)`` inside the request-builder lambda."""
    if not isinstance(args[0], Lam):
        return evaluate(args[0], w.scope)
    for node in walk(args[0]):
        if isinstance(node, Call) and node.name == "url" and node.args and not isinstance(node.args[0], Lam):
            return evaluate(node.args[0], w.scope)
    return None


def _gateway_route(w: Walker, segs: list[Call]) -> bool:
    """Spring Cloud Gateway's Java DSL: ``r -> r.path("/x/**").and().method("GET").uri(target)``."""
    outer = segs[0]
    if outer.name != "uri" or not outer.args or not any(s.name in GATEWAY_PREDICATES for s in segs[1:]):
        return False
    root = segs[-1].recv
    if not isinstance(root, Name) or root.id not in w.scope.params:
        return False
    if not any(i.startswith(GATEWAY_IMPORT) for i in w.ctx.imports):
        return False
    verbs = [_http_method(s.args[0]) or _str_verb(s) for s in segs if s.name == "method" and s.args]
    _site(w, outer, "spring-cloud-gateway", verbs[0] if verbs else None, evaluate(outer.args[0], w.scope), None)
    return True


def _site(
    w: Walker, call: Call, client: str, method: str | None, url: Parts | None, recv: str | None
) -> None:
    w.add(
        {
            "k": "http",
            "client": client,
            "method": method,
            "url": url,
            "line": call.line,
            "end": call.end,
            "recv": recv,
        }
    )


def _http_method(e: E | None) -> str | None:
    name = dotted(e) if e is not None else None
    if name is None:
        return None
    verb = name.rsplit(".", 1)[-1].upper()
    return verb if verb in _HTTP else None


def _rest_template(w: Walker, call: Call) -> None:
    rtype = w.recv_type(call.recv)
    if call.name not in REST_TEMPLATE_DISTINCT and rtype not in REST_TEMPLATE_TYPES:
        return
    if call.recv is None or not call.args:
        return
    method = REST_TEMPLATE[call.name]
    first = call.args[0]
    if method is None and len(call.args) >= 2:
        method = _http_method(call.args[1])
    # exchange(RequestEntity.post(uri)...): method and URL live in the request entity
    if isinstance(first, Call) and method is None:
        for seg in chain(first):
            if dotted(seg.recv) == "RequestEntity" and seg.name.upper() in _HTTP and seg.args:
                method, first = seg.name.upper(), seg.args[0]
    url = evaluate(first, w.scope)
    if isinstance(first, Name) and first.id in w.scope.local_exprs:
        inner = w.scope.local_exprs[first.id]
        if isinstance(inner, Call) and dotted(inner.recv) == "RequestEntity" and inner.args:
            method, url = inner.name.upper(), evaluate(inner.args[0], w.scope)
    recv_target = w.target_of(call.recv)
    if recv_target is not None and url and url[0][0] == "lit" and url[0][1].startswith("/"):
        url = concat(recv_target, url)
    _site(w, call, "RestTemplate", method, url, w.field_of(call.recv) if recv_target is None else None)


def _fluent(w: Walker, segs: list[Call]) -> None:
    """WebClient/RestClient ``.get().uri(..)``; JDK ``HttpRequest.newBuilder().uri(..).GET()``; OkHttp."""
    names = [s.name for s in segs]
    outer = segs[0]
    root = segs[-1].recv
    root_name = dotted(root) if root is not None else None
    if "newBuilder" in names and (root_name == "HttpRequest" or segs[-1].name == "newBuilder"):
        idx = names.index("newBuilder")
        uri_seg = next((s for s in segs if s.name == "uri" and s.args), None)
        arg = uri_seg.args[0] if uri_seg else (segs[idx].args[0] if segs[idx].args else None)
        if arg is not None and root_name == "HttpRequest":
            method = next(
                (JDK_VERBS[s.name] for s in segs if s.name in ("GET", "POST", "PUT", "DELETE")), None
            )
            method = method or next((_str_verb(s) for s in segs if s.name == "method"), None) or "GET"
            _site(w, outer, "java.net.http", method, evaluate(arg, w.scope), None)
        return
    okhttp_root = segs[-1].name == "Builder" or (segs[-1].new_ and segs[-1].name.endswith("Request.Builder"))
    if "url" in names and okhttp_root:
        url_seg = next((s for s in segs if s.name == "url" and s.args), None)
        if url_seg is not None:
            method = next(
                (JDK_VERBS[s.name] for s in segs if s.name in JDK_VERBS and s.name.islower()), "GET"
            )
            _site(w, outer, "okhttp", method, evaluate(url_seg.args[0], w.scope), None)
        return
    if "uri" not in names:
        return
    uri_i = names.index("uri")
    if _proxy_exchange(w, segs, uri_i):
        return
    verb_i, method = None, None
    for i in range(uri_i + 1, len(segs)):
        s = segs[i]
        if s.name in FLUENT_VERBS and not s.args:
            verb_i, method = i, FLUENT_VERBS[s.name]
            break
        if s.name == "method" and s.args:
            verb_i, method = i, _http_method(s.args[0])
            break
    if verb_i is None or not segs[uri_i].args:
        return
    below = segs[verb_i + 1 :]
    rtype = None
    base: Parts | None = None
    recv_field = None
    for s in below:
        if s.name in ("baseUrl", "create") and s.args:
            base = evaluate(s.args[0], w.scope)
        owner = dotted(s.recv) if s.recv is not None else None
        if owner in FLUENT_CLIENT_TYPES:
            rtype = FLUENT_CLIENT_TYPES[owner]
    if rtype is None:
        rtype = w.recv_type(root) if root is not None else None
    if base is None and root is not None and not below:
        base = w.target_of(root)
        recv_field = w.field_of(root) if base is None else None
    elif base is None and below:
        base = chain_target(below[0], w.scope)
        if base is None and root is not None and all(s.name == "build" and not s.args for s in below):
            base = w.target_of(root)  # ``builder.build().get()``: the injected builder's address
            recv_field = w.field_of(root) if base is None else None
    path = _uri_arg(segs[uri_i].args[0], w.scope)
    url = concat(base, path) if base is not None else path
    client = rtype if rtype in ("WebClient", "RestClient") else "WebClient"
    _site(w, outer, client, method, url, recv_field)


def _proxy_exchange(w: Walker, segs: list[Call], uri_i: int) -> bool:
    """``proxy.uri(base + path).forward()``: a gateway handler sending its request on."""
    root = segs[-1].recv
    if uri_i != len(segs) - 1 or not segs[uri_i].args or w.recv_type(root) not in PROXY_EXCHANGE_TYPES:
        return False
    verbs = [s for s in segs[:uri_i] if s.name in PROXY_EXCHANGE_VERBS]
    if not verbs:
        return False
    method = PROXY_EXCHANGE_VERBS[verbs[-1].name]
    _site(w, segs[0], "proxy-exchange", method, evaluate(segs[uri_i].args[0], w.scope), None)
    return True


def _str_verb(seg: Call) -> str | None:
    if not seg.args:
        return None
    text = literal_text(evaluate(seg.args[0], Scope()))
    return text.upper() if text and text.upper() in _HTTP else None


def _uri_arg(arg: E, scope: Scope) -> Parts:
    """``.uri("/x/{id}", id)`` or ``.uri(b -> b.path("/x").build())``."""
    if isinstance(arg, Lam):
        for node in (n for stmt in arg.body for n in walk(stmt)):
            if isinstance(node, Call) and node.name == "path" and node.args:
                return evaluate(node.args[0], scope)
        return [["unknown", arg.hint()]]
    return evaluate(arg, scope)


def _grpc_stub(w: Walker, call: Call) -> None:
    owner = dotted(call.recv) if call.recv is not None else None
    if owner is None:
        return
    last = owner.rsplit(".", 1)[-1]
    if call.name in GRPC_STUB_FACTORIES and last.endswith("Grpc"):
        service = last[: -len("Grpc")]
        for prefix in ("Reactor", "Rx"):
            if call.name in ("newReactorStub", "newRxStub") and service.startswith(prefix):
                service = service[len(prefix) :]
    elif last.endswith("GrpcKt") and call.name.endswith("CoroutineStub"):
        service = last[: -len("GrpcKt")]
    else:
        return
    channel = call.args[0] if call.args else None
    target = w.target_of(channel) if channel is not None else None
    recv_field = w.field_of(channel) if channel is not None and target is None else None
    site: dict[str, Any] = {
        "k": "grpc",
        "client": "grpc-stub",
        "service": service,
        "url": target,
        "line": call.line,
        "end": call.end,
        "recv": recv_field,
    }
    w.add(site)
