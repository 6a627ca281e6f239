"""Value and client actions: env/config reads, string building, net/http and resty calls, gRPC
dial and generated-client constructors."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from orbitkb.analysis.facts import Lit
from orbitkb.analysis.golang.emit import (
    arg,
    emit_call,
    env_value,
    literal,
    method_name,
    new_obj,
    pass_through,
    prop_value,
)
from orbitkb.analysis.golang.grpcserver import gateway_routes, grpc_register
from orbitkb.analysis.golang.values import (
    Obj,
    Pkg,
    S,
    Seq,
    Tup,
    Unk,
    V,
    concat,
    env_fallback,
    join_path,
    lit,
    render,
    sprintf,
)

if TYPE_CHECKING:
    from orbitkb.analysis.golang.frame import Frame, Interp

Args = list[V]
Spec = dict[str, Any]


def new(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    attrs = {k: v for k, v in spec.items() if k not in ("kind", "tup")}
    obj = new_obj(spec["kind"], attrs)
    if obj.kind == "router" and not reached_from_main(fr):
        obj.a["isolated"] = True  # built by a function the interpreter ran on its own (finalize.apis)
    return Tup([obj, Unk("err")]) if spec.get("tup") else obj


def reached_from_main(fr: Frame) -> bool:
    """Whether the run that ``fr`` belongs to started at the program's ``main`` (or ``init``), not at
    a function interpreted on its own with placeholder arguments."""
    top = fr
    while (up := top.caller or top.parent) is not None:
        top = up
    fn = top.fn
    return isinstance(fn, tuple) and len(fn) == 3 and fn[1] == "" and fn[2] in ("main", "init")


def env(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    name = literal(arg(args, 0))
    return env_value(name) if name else Unk("os.Getenv(...)")


def lookup_env(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    return Tup([env(it, fr, recv, args, e, spec), Unk("ok")])


def do_sprintf(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    return sprintf(arg(args, 0), args[1:]) if args else Unk("fmt.Sprintf()")


def do_concat(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    return concat(*args) if args else lit("")


def strings_join(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    items = args[0].items if args and isinstance(args[0], Seq) else []
    sep = arg(args, 1)
    out: list[V] = []
    for i, item in enumerate(items):
        if i:
            out.append(sep)
        out.append(item)
    return concat(*out) if out else Unk("strings.Join(...)")


def builder_write(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """``sb.WriteString(part)`` on a ``strings.Builder`` / ``bytes.Buffer``: the text so far grows by
    the part; a part bound to a whole slice (the variable of a ``range`` over a variadic parameter,
    ``for _, s := range parts``) grows it by every element in order."""
    if isinstance(recv, Obj):
        part = arg(args, 0)
        items = part.items if isinstance(part, Seq) else [part]
        recv.a["str"] = concat(recv.a["str"], *items) if "str" in recv.a else concat(*items)
    return Tup([Unk("n"), Unk("err")])


def builder_string(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    text = recv.a.get("str") if isinstance(recv, Obj) else None
    return text if isinstance(text, V) else lit("")


def take_arg(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    return arg(args, spec["i"])


def do_join_path(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    flat: list[V] = []
    for a in args:
        flat.extend(a.items if isinstance(a, Seq) else [a])
    result = join_path(flat)
    return Tup([result, Unk("err")]) if e[1][0] == "sel" and e[1][2] == "JoinPath" else result


def url_parse(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """``url.Parse(base)``: a URL object whose ``Path`` the code may set before ``String()``."""
    return Tup([Obj("url", base=arg(args, 0)), Unk("err")])


def url_literal(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """``url.URL{Scheme: "http", Host: host, Path: "/orders"}``: the URL object ``url.Parse`` of
    ``scheme://host`` would give, with its ``Path``; without a ``Host`` nothing is known."""
    fields = recv.a if isinstance(recv, Obj) else {}
    host, scheme, path = fields.get("Host"), fields.get("Scheme"), fields.get("Path")
    if not isinstance(host, V):
        return Obj("url", base=Unk("url"))
    obj = Obj("url", base=concat(scheme if isinstance(scheme, V) else lit("http"), lit("://"), host))
    if isinstance(path, V):
        obj.a["Path"] = path
    return obj


def _url_text(u: Obj) -> V:
    base = u.a.get("base")
    text: V = base if isinstance(base, V) else Unk("url")
    path = u.a.get("Path")
    return concat(text, path) if isinstance(path, V) else text  # ``u.Path = "/orders"``


def url_string(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    return _url_text(recv) if isinstance(recv, Obj) else Unk("url.String()")


def url_ref(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """``base.Parse("./rooms/1")`` / ``base.ResolveReference(ref)``: the reference resolved against
    the base (generated OpenAPI clients build every request this way)."""
    if not isinstance(recv, Obj):
        return Tup([Unk("url.Parse()"), Unk("err")])
    ref = arg(args, 0)
    if isinstance(ref, Obj) and ref.kind == "url":
        ref = _url_text(ref)
    base = _url_text(recv)
    if not isinstance(ref, S):
        return Tup([Obj("url", base=Unk("url")), Unk("err")])
    parts = list(ref.parts)
    if parts and isinstance(parts[0], Lit):
        text = parts[0].text[1:] if parts[0].text.startswith("./") else parts[0].text
        parts[0] = Lit(text if text.startswith("/") else "/" + text)
    if isinstance(base, S) and base.parts and isinstance(base.parts[-1], Lit) and base.parts[-1].text.endswith("/"):
        base = S((*base.parts[:-1], Lit(base.parts[-1].text[:-1])))
    resolved = Obj("url", base=concat(base, S(tuple(parts))))
    return resolved if spec.get("single") else Tup([resolved, Unk("err")])


def url_join(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    if not isinstance(recv, Obj):
        return Unk("url.JoinPath()")
    flat: list[V] = [_url_text(recv)]
    for a in args:
        flat.extend(a.items if isinstance(a, Seq) else [a])
    return Obj("url", base=join_path(flat))


def host_port(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    return concat(arg(args, 0), lit(":"), arg(args, 1))


def or_default(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    if not args:
        return Unk("cmp.Or()")
    best = args[0]
    for a in args[1:]:
        best = env_fallback(best, a) or best
    return best


def flag_default(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    d = literal(arg(args, spec["i"]))
    return lit(d) if d else Unk("flag")


def flag_var(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    target = e[2][0] if e[2] else None
    d = literal(arg(args, 2))
    if target is not None and target[0] in ("id", "sel") and d:
        it.assign(target, lit(d), fr, "=")
    return Unk("flag")


def prop(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    key = literal(arg(args, 0))
    return prop_value(it.prop_defaults, key) if key else Unk("viper.Get(...)")


def prop_default(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    key, value = literal(arg(args, 0)), literal(arg(args, 1))
    if key and value is not None:
        it.prop_defaults.setdefault(key, value)
    return Unk("void")


# --------------------------------------------------------------------------- HTTP clients


def http_call(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    emit_call(it, fr, e, "http", "net/http", arg(args, spec["url"]), spec["m"])
    return Tup([Obj("http_resp"), Unk("err")])


def http_request(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    method = method_name(arg(args, spec["m"]))
    url = arg(args, spec["url"])
    emit_call(it, fr, e, "http", "net/http", url, method)
    return Tup([Obj("http_req", method=method, url=url), Unk("err")])


def proxy_call(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """A reverse proxy (Fiber's ``proxy.Do(c, upstream+c.Path())``, ``BalancerForward(servers)``,
    ``httputil.NewSingleHostReverseProxy(u)``): a call to each upstream, whatever the method."""
    if "field" in spec:
        cfg = arg(args, 0)
        target = cfg.a.get(spec["field"]) if isinstance(cfg, Obj) else None
    else:
        target = arg(args, spec["url"])
    if isinstance(target, Obj) and target.kind == "url":
        target = _url_text(target)
    for one in target.items if isinstance(target, Seq) else [target]:
        if isinstance(one, V) and not isinstance(one, Unk):
            emit_call(it, fr, e, "http", "reverse-proxy", one, None)
    return Unk("proxy")


def resty_req(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    base = recv.a.get("base") if isinstance(recv, Obj) else None
    return Obj("resty_req", base=base)


def resty_base(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    if isinstance(recv, Obj) and args:
        recv.a["base"] = args[0]
    return recv if recv is not None else Unk("resty")


def _with_base(base: V | None, url: V) -> V:
    text = literal(url)
    if base is None or (text is not None and "://" in text):
        return url
    return concat(base, url)


def resty_call(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    base = recv.a.get("base") if isinstance(recv, Obj) else None
    if "url" in spec:
        method, url = method_name(arg(args, spec["m"])), arg(args, spec["url"])
    else:
        method, url = spec["m"], arg(args, 0)
    emit_call(it, fr, e, "http", "resty", _with_base(base, url), method)
    return Tup([Obj("http_resp"), Unk("err")])


# --------------------------------------------------------------------------- gRPC


def grpc_dial(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    return Tup([Obj("grpc_conn", addr=arg(args, spec["addr"])), Unk("err")])


def grpc_new_client(it: Interp, fr: Frame, service: str, conn: V, e: list[Any]) -> V:
    """A generated ``New<X>Client(conn)``: recorded here only as a fallback, kept when no RPC is
    ever invoked on a client of that service (the invocations say which methods are used)."""
    addr = conn.a.get("addr") if isinstance(conn, Obj) and conn.kind == "grpc_conn" else None
    url = addr if isinstance(addr, V) else (Unk(render(conn)) if not isinstance(conn, Obj) else None)
    emit_call(it, fr, e, "grpc", "grpc", url, None, grpc_service=service, ctor=True)
    return Obj("grpc_client", service=service, addr=addr if isinstance(addr, V) else url)


def grpc_invoke(it: Interp, fr: Frame, client: Obj, name: str, args: Args, e: list[Any]) -> V:
    """An RPC invoked on a generated client: the call, with the method (the pipeline makes the
    path ``<Service>/<Method>`` of it)."""
    service = client.a.get("service")
    if name[:1].isupper() and isinstance(service, str):
        addr = client.a.get("addr")
        emit_call(it, fr, e, "grpc", "grpc", addr if isinstance(addr, V) else None, name, service)
    return Tup([Unk(name), Unk("err")])


def named_grpc_client(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """A client that names the service and method it calls as strings (go-kit
    ``grpctransport.NewClient(conn, "orders.OrderService", "Get", ...)``): the call is to the
    service implementing that proto service."""
    conn = arg(args, spec.get("conn", 0))
    service, method = literal(arg(args, spec["service"])), literal(arg(args, spec["method"]))
    if service:
        addr = conn.a.get("addr") if isinstance(conn, Obj) and conn.kind == "grpc_conn" else None
        emit_call(it, fr, e, "grpc", spec.get("client", "grpc"), addr if isinstance(addr, V) else None,
                  method or None, grpc_service=service)  # fmt: skip
    return Unk("grpc_client")  # its Endpoint() is the call already recorded


def micro_request(it: Interp, fr: Frame, recv: V | None, args: Args, e: list[Any], spec: Spec) -> V:
    """A go-micro request built by name, ``client.NewRequest("shop.service.stock", "Stock.Reserve",
    req)``: an RPC to the service that handles ``Stock`` (its method ``Reserve``), whatever the
    registry calls it; ``Call(ctx, req, rsp)`` sends what is already recorded."""
    endpoint = literal(arg(args, 1)) if len(args) >= 2 else None
    service, dot, method = (endpoint or "").partition(".")
    if dot and service and method:
        emit_call(it, fr, e, "grpc", "go-micro", None, method, grpc_service=service)
    return Unk("micro_request")


_REGISTER = re.compile(r"^Register(\w+)Server$")
_REGISTER_HTTP = re.compile(r"^Register(\w+)HTTPServer$")
#: grpc-gateway: Register<X>Handler(ctx, mux, conn), ...FromEndpoint(ctx, mux, addr, opts),
#: ...Client(ctx, mux, client), ...Server(ctx, mux, impl)
_REGISTER_GATEWAY = re.compile(r"^Register(\w+?)Handler(FromEndpoint|Client|Server)?$")
_NEW_CLIENT = re.compile(r"^New(\w+)Client$")
#: An env getter of a library (``env.GetEnvString("TOPIC", "orders")``, ``envy.Get("X", "d")``):
#: its name speaks of the environment and it is given an upper-case variable name.
_ENV_GETTER = re.compile(r"^(?:Must)?(?:Get|Lookup|Read)?Env(?:ironment)?(?:String|Str|Var|OrDefault|Default|Or)?$|^Get$", re.I)
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")


def library_env(pkg: Pkg, name: str, args: Args) -> V | None:
    """The variable a library's env getter reads, with the string default it is given."""
    if not _ENV_GETTER.match(name) or (name == "Get" and "env" not in pkg.path.rsplit("/", 1)[-1].lower()):
        return None
    var = literal(arg(args, 0)) if args else None
    if var is None or not _ENV_NAME.match(var):
        return None
    default = literal(args[1]) if len(args) > 1 else None
    return env_value(var, default)
#: protoc-gen-micro: ``Register<X>Handler(server, impl)`` and ``New<X>Service(name, client)``
_MICRO_REGISTER = re.compile(r"^Register(\w+)Handler$")
_MICRO_CLIENT = re.compile(r"^New(\w+)Service$")
_PROTO_HINTS = ("pb", "proto", "grpc", "gen", "api", "rpc", "stub")


def gateway_register(
    it: Interp, fr: Frame, service: str, how: str | None, args: Args, e: list[Any], pkg_path: str
) -> V:
    """A grpc-gateway registration: the proto's HTTP routes served here, and, unless the
    implementation is in-process, a gRPC call to the service behind it."""
    if how == "Server":
        grpc_register(it, fr, service, args[2], e, pkg_path, transcoded=True)
        return Unk("register")
    gateway_routes(it, fr, service, e)
    backend = args[2]
    if how == "Client" and isinstance(backend, Obj) and backend.kind == "grpc_client":
        return Unk("register")  # New<X>Client already recorded the call
    addr = backend.a.get("addr") if isinstance(backend, Obj) and backend.kind == "grpc_conn" else backend
    emit_call(it, fr, e, "grpc", "grpc-gateway", addr if isinstance(addr, V) else None, None,
              grpc_service=service, ctor=True)  # fmt: skip
    return Unk("register")


def _micro(v: V, kind: str) -> bool:
    """A go-micro server or client (``service.Server()``), or a value the code does not show."""
    return (isinstance(v, Obj) and v.kind == kind) or isinstance(v, Unk)


def generic_ext(it: Interp, fr: Frame, pkg: Pkg, name: str, args: Args, e: list[Any], lib: str) -> V:
    """Calls into generated protobuf packages: Register<X>Server and New<X>Client; env getters."""
    if lib:
        return pass_through(args, e)
    found = library_env(pkg, name, args)
    if found is not None:
        return found
    m = _REGISTER_HTTP.match(name)
    if m and len(args) >= 2:  # kratos: the rpcs of impl also served over HTTP
        grpc_register(it, fr, m.group(1), args[1], e, pkg.path, transcoded=True)
        return Unk("register")
    m = _REGISTER_GATEWAY.match(name)  # (ctx, mux, ...): never the (srv, impl) of a gRPC server
    if m and len(args) >= 3 and any(h in pkg.path.lower() for h in _PROTO_HINTS):
        return gateway_register(it, fr, m.group(1), m.group(2), args, e, pkg.path)
    m = _REGISTER.match(name)
    if m and len(args) >= 2:
        grpc_register(it, fr, m.group(1), args[1], e, pkg.path)
        return Unk("register")
    m = _MICRO_REGISTER.match(name)
    if m and len(args) == 2 and _micro(args[0], "micro_server"):  # go-micro: the rpcs impl serves
        grpc_register(it, fr, m.group(1), args[1], e, pkg.path)
        return Unk("register")
    m = _MICRO_CLIENT.match(name)
    if m and len(args) == 2 and _micro(args[1], "micro_client"):  # go-micro: rpcs to the service named
        return grpc_new_client(it, fr, m.group(1), args[1], e)
    m = _NEW_CLIENT.match(name)
    if m and args:
        conn = args[0]
        is_conn = isinstance(conn, Obj) and conn.kind == "grpc_conn"
        path = pkg.path.lower()
        if is_conn or any(h in path for h in _PROTO_HINTS):
            return grpc_new_client(it, fr, m.group(1), conn, e)
    return pass_through(args, e)


ACTIONS = {
    "new": new,
    "micro_request": micro_request,
    "url_ref": url_ref,
    "env": env,
    "lookup_env": lookup_env,
    "sprintf": do_sprintf,
    "concat": do_concat,
    "strings_join": strings_join,
    "builder_write": builder_write,
    "builder_string": builder_string,
    "arg": take_arg,
    "join_path": do_join_path,
    "host_port": host_port,
    "url_parse": url_parse,
    "url_string": url_string,
    "url_literal": url_literal,
    "url_join": url_join,
    "proxy_call": proxy_call,
    "or_default": or_default,
    "flag_default": flag_default,
    "flag_var": flag_var,
    "prop": prop,
    "prop_default": prop_default,
    "http_call": http_call,
    "http_request": http_request,
    "resty_req": resty_req,
    "resty_base": resty_base,
    "resty_call": resty_call,
    "grpc_dial": grpc_dial,
    "named_grpc_client": named_grpc_client,
    "first_func": lambda it, fr, recv, args, e, spec: pass_through(args, "HandlerFunc"),
}
