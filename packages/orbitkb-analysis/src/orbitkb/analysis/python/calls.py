"""Outbound HTTP and gRPC calls: requests/httpx/aiohttp/urllib (module functions and client
objects with ``base_url``), the codebase's own thin wrappers (reported at their call sites with
the composed URL), ``<X>Stub(channel)`` with ``grpc.insecure_channel(addr)``, and the gRPC
services the code implements (``add_<X>Servicer_to_server``)."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from orbitkb.analysis.facts import RawCall
from orbitkb.analysis.python.ir import Node, cat, describe, literal
from orbitkb.analysis.python.linkctx import Inv, LinkState, to_expr
from orbitkb.analysis.python.signatures import (
    GRPC_STUB_SUFFIX,
    HTTP_CLIENT_METHODS,
    HTTP_FUNCS,
    URLLIB_REQUEST,
)

Key = tuple[str, str]
Http = tuple[Node | None, Node, str]  # (method node, url node, client label)
_SERVICER = re.compile(r"add_(\w+?)Servicer_to_server$")
_CLIENTISH = re.compile(r"(client|session|http|api)", re.I)


def has_param(node: Any, depth: int = 0) -> bool:
    if depth > 20:
        return False
    if isinstance(node, dict):
        if node.get("t") == "param":
            return True
        return any(has_param(v, depth + 1) for k, v in node.items() if k not in ("d", "ty"))
    if isinstance(node, list):
        return any(has_param(v, depth + 1) for v in node)
    return False


def direct_http(st: LinkState, inv: Inv) -> Http | None:
    c = inv.callee
    if c["t"] == "ext" and c["q"] in HTTP_FUNCS:
        fixed, lib = HTTP_FUNCS[c["q"]]
        if fixed is None:
            return inv.arg(0, "method"), inv.arg(1, "url") or {"t": "unk", "h": "url"}, lib
        url = inv.arg(0, "url")
        if url is None:
            return None
        if lib == "urllib" and url["t"] == "inst" and describe(url["c"]) in URLLIB_REQUEST:
            req = url
            url = req["a"][0] if req["a"] else req["k"].get("url", {"t": "unk", "h": "url"})
            data = len(req["a"]) > 1 or "data" in req["k"]
            method_node = req["k"].get("method") or {"t": "lit", "v": "POST" if data else "GET"}
            return method_node, url, lib
        return {"t": "lit", "v": fixed}, url, lib
    if c["t"] != "bm" or c["n"] not in HTTP_CLIENT_METHODS:
        return None
    o = st.r.as_object(c["o"])
    fam = st.r.family(o) or ""
    if fam.startswith("http-conn:"):
        return _connection_request(inv, o, fam[len("http-conn:") :]) if c["n"] == "request" else None
    verb = HTTP_CLIENT_METHODS[c["n"]]
    if fam.startswith("http:"):
        lib = fam[5:]
    elif (
        fam
        or o["t"] not in ("param", "bm", "unk", "ret", "inst")
        or not _CLIENTISH.search(describe(o).split(".")[-1])
    ):
        return None
    else:
        lib = "http"  # an untyped client object: accept only a URL-looking argument
    method: Node | None
    if verb is None:
        method, url = inv.arg(0, "method"), inv.arg(1, "url")
    else:
        method, url = {"t": "lit", "v": verb}, inv.arg(0, "url")
    if url is None:
        return None
    if lib == "http" and not _looks_like_url(url):
        return None
    base = o["k"].get("base_url") if o["t"] == "inst" else None
    if base is not None and not _absolute(url):
        url = {"t": "cat", "p": [base, url]}
    return method, url, lib


def _connection_request(inv: Inv, conn: Node, scheme: str) -> Http | None:
    """``http.client.HTTPConnection(host, port).request(method, path)``: the URL is composed from both."""
    host = conn["a"][0] if conn["a"] else conn["k"].get("host")
    path = inv.arg(1, "url")
    if host is None or path is None:
        return None
    port = conn["a"][1] if len(conn["a"]) > 1 else conn["k"].get("port")
    parts = [{"t": "lit", "v": scheme + "://"}, host]
    if port is not None and port["t"] != "none":
        parts += [{"t": "lit", "v": ":"}, port]
    return inv.arg(0, "method"), {"t": "cat", "p": [*parts, path]}, "http.client"


_MAX_ALTERNATIVES = 16


def alternatives(node: Node) -> list[Node]:
    """The values a URL can take when part of it is any of several (``{"t": "any"}``: a table read
    with a runtime key, a loop over literals); the node itself when it holds no choice."""
    if node["t"] == "any":
        out: list[Node] = []
        for v in node["v"]:
            out.extend(alternatives(v))
        return _unique(out)[:_MAX_ALTERNATIVES] or [node]
    if node["t"] == "cat" and any(_has_any(p) for p in node["p"]):
        combos: list[list[Node]] = [[]]
        for p in node["p"]:
            combos = [[*c, a] for c in combos for a in alternatives(p)][:_MAX_ALTERNATIVES]
        return _unique([cat(c) for c in combos])
    return [node]


def _has_any(node: Node) -> bool:
    return node["t"] == "any" or (node["t"] == "cat" and any(_has_any(p) for p in node["p"]))


def _unique(nodes: list[Node]) -> list[Node]:
    seen: set[str] = set()
    out: list[Node] = []
    for n in nodes:
        key = repr(n)
        if key not in seen:
            seen.add(key)
            out.append(n)
    return out


def _first_lit(url: Node) -> str | None:
    first: str | None = None
    if url["t"] == "lit":
        first = url["v"]
    elif url["t"] == "cat" and url["p"] and url["p"][0]["t"] == "lit":
        first = url["p"][0]["v"]
    return first


def _looks_like_url(url: Node) -> bool:
    head = _first_lit(url)
    return head is not None and (head.startswith("/") or head.startswith("http"))


def _absolute(url: Node) -> bool:
    head = _first_lit(url)
    return head is not None and head.startswith(("http://", "https://"))


def _method(node: Node | None) -> str | None:
    m = literal(node)
    return m.upper() if m else None


class _Calls:
    def __init__(self, st: LinkState):
        self.st = st
        self.by_fn: dict[Key, list[Inv]] = defaultdict(list)
        self.called: set[Key] = set()
        for inv in st.invs:
            if inv.fn is not None:
                self.by_fn[(inv.path, inv.fn)].append(inv)
            if inv.callee["t"] == "fn":
                self.called.add((inv.callee["p"], inv.callee["n"]))
        self._templates: dict[Key, list[Http]] = {}
        self.instances: dict[Key, list[Inv]] = defaultdict(list)
        for inv in st.invs:
            if inv.callee["t"] == "cls":
                self.instances[(inv.callee["p"], inv.callee["n"])].append(inv)

    def templates(self, key: Key, depth: int = 0) -> list[Http]:
        """HTTP calls of function ``key`` whose URL still depends on its parameters."""
        if key in self._templates:
            return self._templates[key]
        self._templates[key] = []
        out: list[Http] = []
        for inv in self.by_fn.get(key, ()):
            d = direct_http(self.st, inv)
            if d is not None:
                if has_param(d[1]) or has_param(d[0]):
                    out.append(d)
            elif depth < 4:
                out.extend(t for t in self.through_wrapper(inv, depth + 1) if has_param(t[1]))
        self._templates[key] = out
        return out

    def through_wrapper(self, inv: Inv, depth: int = 0) -> list[Http]:
        c = inv.callee
        if c["t"] != "fn":
            return []
        tmpl = self.templates((c["p"], c["n"]), depth)
        if not tmpl:
            return []
        bind = self.st.r.bind_call(c, inv.args, inv.kw)
        label = "wrapper:" + self.st.handler_name(c["p"], c["n"])
        return [
            (
                self.st.r.ev(m, bind) if m else None,
                self.st.r.ev(u, bind),
                lab if lab.startswith("wrapper:") else label,
            )
            for m, u, lab in tmpl
        ]

    def single_instance(self, inv: Inv, node: Node) -> Node:
        """Inside a method, bind ``self`` attributes from the class's only instantiation in the service."""
        cls = self.st.func(inv.path, inv.fn).get("c") if inv.fn else None
        if not cls or not has_param(node):
            return node
        sites = self.instances.get((inv.path, cls), [])
        if len(sites) != 1:
            return node
        inst = {"t": "inst", "c": {"t": "cls", "p": inv.path, "n": cls}, "a": sites[0].args, "k": sites[0].kw}
        return self.st.r.ev(node, {"__init__": self.st.r.init_binding(inst)})

    def emit(self, inv: Inv, method: Node | None, url: Node, client: str) -> list[tuple[RawCall, str | None]]:
        """One call per URL the site can reach: a table looked up at run time gives one each."""
        url = self.single_instance(inv, url)
        return [
            (
                RawCall(
                    kind="http",
                    file=inv.path,
                    line=inv.line,
                    end_line=inv.end,
                    client=client,
                    url=to_expr(self.st.r, one),
                    method=_method(method),
                ),
                inv.fn,
            )
            for one in alternatives(url)
        ]

    def is_wrapper_with_sites(self, inv: Inv) -> bool:
        return (
            inv.fn is not None
            and (inv.path, inv.fn) in self.called
            and bool(self.templates((inv.path, inv.fn)))
        )


def collect(st: LinkState) -> tuple[list[tuple[RawCall, str | None]], set[str]]:
    cs = _Calls(st)
    out: list[tuple[RawCall, str | None]] = []
    implements: set[str] = set()
    stubs_called: set[tuple[str, str]] = set()
    stub_sites: list[tuple[Inv, str, Node | None]] = []
    for inv in st.invs:
        d = direct_http(st, inv)
        if d is not None:
            method, url, lib = d
            if (has_param(url) or has_param(method)) and cs.is_wrapper_with_sites(inv):
                continue  # reported at the wrapper's call sites
            out.extend(cs.emit(inv, method, url, lib))
            continue
        wrapped = cs.through_wrapper(inv)
        for method, url, label in wrapped:
            if (has_param(url) or has_param(method)) and cs.is_wrapper_with_sites(inv):
                continue
            out.extend(cs.emit(inv, method, url, label))
        if wrapped:
            continue
        c = inv.callee
        name = describe(c).rsplit(".", 1)[-1].rstrip("()")
        m = _SERVICER.search(name)
        if m:
            implements.add(m.group(1))
            continue
        if c["t"] in ("ext", "cls") and name.endswith(GRPC_STUB_SUFFIX) and len(name) > len(GRPC_STUB_SUFFIX):
            stub_sites.append(
                (inv, name[: -len(GRPC_STUB_SUFFIX)], _channel_target(st, inv.arg(0, "channel")))
            )
        elif c["t"] == "bm" and c["o"]["t"] == "inst":
            stub = describe(c["o"]["c"]).rsplit(".", 1)[-1]
            if stub.endswith(GRPC_STUB_SUFFIX) and len(stub) > 4 and c["n"][:1].isupper():
                service = stub[: -len(GRPC_STUB_SUFFIX)]
                target = _channel_target(st, c["o"]["a"][0] if c["o"]["a"] else c["o"]["k"].get("channel"))
                target = cs.single_instance(inv, target) if target is not None else None
                out.append((_grpc(st, inv, service, target, c["n"]), inv.fn))
                stubs_called.add((inv.path, service))
    for inv, service, target in stub_sites:
        if (inv.path, service) not in stubs_called:
            out.append((_grpc(st, inv, service, target, None), inv.fn))
    for path in sorted(st.files):
        for info in st.files[path]["classes"].values():
            for b in info["b"]:
                base = describe(b).rsplit(".", 1)[-1]
                if base.endswith("Servicer") and len(base) > 8 and "pb2_grpc" in describe(b):
                    implements.add(base[: -len("Servicer")])
    return out, implements


def _channel_target(st: LinkState, ch: Node | None) -> Node | None:
    if ch is None:
        return None
    ch = st.r.as_object(ch)
    if st.r.family(ch) == "grpc-channel":
        target: Node | None = ch["a"][0] if ch["a"] else ch["k"].get("target")
        return target
    return None


def _grpc(st: LinkState, inv: Inv, service: str, target: Node | None, rpc: str | None) -> RawCall:
    return RawCall(
        kind="grpc",
        file=inv.path,
        line=inv.line,
        end_line=inv.end,
        client="grpc-stub",
        url=to_expr(st.r, target) if target is not None else None,
        method=rpc,
        grpc_service=service,
    )
