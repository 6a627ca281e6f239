"""Outbound calls of a .NET service: HttpClient calls (typed clients registered with
``AddHttpClient<I, C>(c => c.BaseAddress = …)``, named clients from ``IHttpClientFactory``,
``HttpRequestMessage``), Refit and RestEase interfaces (``RestClient.For<I>(httpClient)`` takes the
``BaseAddress`` the building method gives that client; ``[Post]`` alone calls the base address), and
gRPC clients (``AddGrpcClient<S.SClient>``, ``new S.SClient(GrpcChannel.ForAddress(…))``). Base
addresses stay value parts until the pipeline resolves them through appsettings, compose and
Kubernetes."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from orbitkb.analysis.dotnet.index import ServiceIndex, Site, simple
from orbitkb.analysis.dotnet.tables import HTTP_CLIENT_METHODS, REFIT_ATTRS
from orbitkb.analysis.facts import RawCall
from orbitkb.analysis.httpverbs import HTTP_METHODS

_GRPC_CLIENT = re.compile(r"^(?:global::)?(?:[\w.]+\.)?(\w+)\.(\w+)Client$")
_REGISTRATIONS = ("AddHttpClient", "AddRefitClient", "AddTypedClient")
Parts = list[list[Any]]
_VERBS = frozenset(HTTP_METHODS)


def _verb(parts: Parts | None) -> str | None:
    """``HttpMethod.Post`` / ``ApiType.DELETE`` / ``"PUT"`` -> the HTTP method it names."""
    if not parts or len(parts) != 1 or parts[0][0] not in ("ref", "lit"):
        return None
    word = str(parts[0][1]).rsplit(".", 1)[-1].upper()
    return word if word in _VERBS else None


def grpc_client_service(type_text: str) -> str | None:
    m = _GRPC_CLIENT.match(type_text.split("<", 1)[0].strip())
    return m.group(1) if m and m.group(1) == m.group(2) else None


def join(base: Parts | None, path: Parts) -> Parts:
    """``base`` + ``path`` with exactly one slash between; an absolute path ignores the base."""
    first = path[0] if path else None
    if first and first[0] == "lit" and re.match(r"^[a-z][\w+.-]*://", str(first[1])):
        return path
    if not base:  # a relative literal needs the client's base; a configured value is a whole URL
        relative = bool(first and first[0] == "lit")
        return [["unknown", "HttpClient.BaseAddress"], *path] if relative else [list(p) for p in path]
    base = [list(p) for p in base]
    path = [list(p) for p in path]
    if path and path[0][0] == "lit":
        path[0][1] = str(path[0][1]).lstrip("/")
    if base[-1][0] == "lit":
        base[-1][1] = str(base[-1][1]).rstrip("/")
    return [*base, ["lit", "/"], *path] if path else base


class Clients:
    def __init__(self, index: ServiceIndex) -> None:
        self.index = index
        self.typed: dict[str, Parts] = {}  # client class (or Refit interface) -> base address parts
        self.named: dict[str, Parts] = {}  # IHttpClientFactory name -> base address parts
        self.by_var: dict[tuple[str, int, int, str], Mapping[str, Any]] = {}
        self._created: dict[tuple[str, int, int], Parts] | None = None
        for site in index.sites():
            if site.data.get("v"):
                self.by_var[(site.file, site.data["t"], site.data["m"], site.data["v"])] = site.data
        self._registrations()

    def _registration_of(self, path: str, k: int) -> Mapping[str, Any] | None:
        """The ``AddHttpClient``-like invocation a lambda at invocation ``k`` configures."""
        inv = self.index.invocation(path, k)
        for _ in range(6):
            if inv is None:
                return None
            if inv.get("n") in _REGISTRATIONS:
                return inv
            inv = self.index.invocation(path, inv["ri"]) if "ri" in inv else None
        return None

    def _registrations(self) -> None:
        for a in self.index.sites("assign"):
            d = a.data
            if d["n"] != "BaseAddress" or not d.get("v"):
                continue
            owner = a.owner.name if a.owner else None
            reg = self._registration_of(a.file, d["p"]) if d["p"] >= 0 else None
            parts = self.index.fold(d["v"], owner)
            if reg is None:
                if owner and d["p"] < 0:
                    self.typed.setdefault(owner, parts)  # _client.BaseAddress = … in the client itself
                continue
            generics = reg.get("g") or []
            if generics:
                self.typed.setdefault(simple(generics[-1]), parts)
                self.typed.setdefault(simple(generics[0]), parts)
            elif reg.get("a") and "v" in reg["a"][0]:
                name = self.index.literal(reg["a"][0]["v"], owner)
                if name:
                    self.named.setdefault(name, parts)
        for site in self.index.sites("new"):  # new HttpClient { BaseAddress = new Uri(…) }
            init = site.data.get("init") or {}
            if simple(site.data["ty"]) == "HttpClient" and "BaseAddress" in init and site.owner is not None:
                self.typed.setdefault(site.owner.name, self.index.fold(init["BaseAddress"], site.owner.name))

    # ------------------------------------------------------------------ HTTP

    def _base(self, site: Site) -> Parts | None:
        d = site.data
        recv: Mapping[str, Any] | None = None
        if "ri" in d:
            recv = self.index.invocation(site.file, d["ri"])
        elif d.get("r"):
            recv = self.by_var.get((site.file, d["t"], d["m"], d["r"]))
        if recv is not None and recv.get("n") == "CreateClient":
            args = recv.get("a") or []
            name = self.index.literal(args[0].get("v"), None) if args else None
            if name is not None and name in self.named:
                return self.named[name]
        owner = site.owner
        for _ in range(3):
            if owner is None:
                return None
            if owner.name in self.typed:
                return self.typed[owner.name]
            for base in owner.data["b"]:
                if simple(base) in self.typed:
                    return self.typed[simple(base)]
            owner = self.index.type(owner.data["b"][0]) if owner.data["b"] else None
        return None

    def _is_http_client(self, site: Site) -> bool:
        d = site.data
        if "rt" in d:
            return simple(d["rt"]) in ("HttpClient", "IHttpClient")
        if "ri" in d:
            recv = self.index.invocation(site.file, d["ri"])
            return recv is not None and recv.get("n") == "CreateClient"
        receiver: Any = d.get("r")
        name = str(receiver or "").lower()
        if (site.file, d["t"], d["m"], receiver) in self.by_var:
            return self.by_var[(site.file, d["t"], d["m"], receiver)].get("n") == "CreateClient"
        return "client" in name or "http" in name

    def _wrappers(self) -> dict[tuple[str, str], str]:
        """A codebase's own ``HttpClient`` extension methods (``PostAsJson(this HttpClient c, …)``)
        -> the HTTP method of the call they make on it; their call sites are the calls."""
        out: dict[tuple[str, str], str] = {}
        for site in self.index.sites():
            m = site.method
            method = HTTP_CLIENT_METHODS.get(site.data.get("n", ""))
            if m is None or site.owner is None or method is None or not m["x"] or not m["ps"]:
                continue
            if simple(m["ps"][0][0]) == "HttpClient" and site.data.get("r") == m["ps"][0][1]:
                out[(site.owner.name, m["n"])] = method
        return out

    def http(self) -> list[RawCall]:
        out: list[RawCall] = []
        wrappers = self._wrappers()
        by_name = {name: verb for (_, name), verb in wrappers.items()}
        for site in self.index.sites():
            d = site.data
            if (
                site.owner is not None
                and site.method is not None
                and (site.owner.name, site.method["n"]) in wrappers
            ):
                continue
            method = HTTP_CLIENT_METHODS.get(d.get("n", "")) or by_name.get(d.get("n", ""))
            args = d.get("a") or []
            if method is None or not args or "v" not in args[0] or not self._is_http_client(site):
                continue
            if args[0].get("ty") and simple(args[0]["ty"]) == "HttpRequestMessage":
                continue
            out.append(self._call(site, method, args[0]["v"], "HttpClient"))
        for site in self.index.sites("new"):
            d = site.data
            args = d.get("a") or []
            init = d.get("init") or {}
            if simple(d["ty"]) in ("HttpRequestMessage", "") and "RequestUri" in init:
                out += self._message(site, init)  # new HttpRequestMessage { RequestUri = …, Method = … }
                continue
            if simple(d["ty"]) != "HttpRequestMessage" or len(args) < 2 or "v" not in args[1]:
                continue
            verb = args[0].get("x", "").rsplit(".", 1)[-1].strip('"() ').upper()
            out.append(self._call(site, verb if verb.isalpha() else "GET", args[1]["v"], "HttpClient"))
        return out

    def _message(self, site: Site, init: Mapping[str, Any]) -> list[RawCall]:
        """A request message built with an initializer. When its address is a property of a request
        descriptor the method was given (``RequestUri = new Uri(request.Url)``), every place that
        builds such a descriptor (``new ApiRequest { Url = Routes.Orders + "/api/orders" }``) is a call."""
        verb = _verb(init.get("Method")) or "GET"
        uri = init["RequestUri"]
        param = str(uri[0][1]).split(".") if len(uri) == 1 and uri[0][0] == "ref" else []
        kinds = {str(n): str(ty) for ty, n in (site.method or {}).get("ps", ())}
        if len(param) != 2 or param[0] not in kinds:
            return [self._call(site, verb, uri, "HttpClient")]
        out = []
        for made in self.index.sites("new"):
            given = made.data.get("init") or {}
            if simple(made.data["ty"]) != simple(kinds[param[0]]) or param[1] not in given:
                continue
            method = next((v for k, parts in given.items() if k != param[1] and (v := _verb(parts))), verb)
            owner = made.owner.name if made.owner else None
            parts = join(None, self.index.fold(given[param[1]], owner))
            out.append(RawCall("http", made.file, made.line, int(made.data.get("e", made.line)), "HttpClient",
                               url=self.index.expr(parts), method=method, component=owner))  # fmt: skip
        return out

    def _factory_base(self, site: Site) -> Parts | None:
        """The base address of the named client the same method creates (a request message sent
        through ``factory.CreateClient("name")``)."""
        if self._created is None:
            self._created = {}
            for other in self.index.sites():
                d = other.data
                if d.get("n") == "CreateClient" and d.get("a"):
                    name = self.index.literal(d["a"][0].get("v"), None)
                    if name in self.named:
                        self._created.setdefault((other.file, d["t"], d["m"]), self.named[name])
        return self._created.get((site.file, site.data["t"], site.data["m"]))

    def _call(self, site: Site, method: str, path: Parts, client: str) -> RawCall:
        owner = site.owner.name if site.owner else None
        base = self._base(site)
        if base is None and "ty" in site.data:
            base = self._factory_base(site)
        parts = join(base, self.index.fold(path, owner))
        return RawCall("http", site.file, site.line, int(site.data.get("e", site.line)), client,
                       url=self.index.expr(parts), method=method, component=owner)  # fmt: skip

    def refit(self) -> list[RawCall]:
        out: list[RawCall] = []
        builders: dict[str, Parts] = {}
        for site in self.index.sites():
            d = site.data
            if d.get("n") == "For" and d.get("g") and d.get("a") and "v" in d["a"][0]:
                parts = self.index.fold(d["a"][0]["v"], None)
                if all(p[0] == "unknown" for p in parts):  # RestClient.For<T>(httpClient): its BaseAddress
                    parts = self._base_address(site) or parts
                builders[simple(d["g"][0])] = parts
        for ref in self.index.types:
            if ref.data["k"] != "interface":
                continue
            base = self.typed.get(ref.name) or builders.get(ref.name)
            for m in ref.data["m"]:
                for attr in m.get("a") or ():
                    verb = REFIT_ATTRS.get(str(attr[0]).removesuffix("Attribute"))
                    if verb is None or (attr[1] and "v" not in attr[1][0]) or (not attr[1] and base is None):
                        continue
                    # [Post] with no path calls the base address itself
                    path = self.index.fold(attr[1][0]["v"], ref.name) if attr[1] else []
                    parts = join(base, path)
                    out.append(RawCall("http", ref.file, m["l"], m["e"], "refit", url=self.index.expr(parts),
                                       method=verb, component=ref.name))  # fmt: skip
        return out

    def _base_address(self, site: Site) -> Parts | None:
        """The ``BaseAddress`` the method that builds a client gives an ``HttpClient`` (an object
        initializer or an assignment), when it gives one."""
        owner, method = site.data.get("t"), site.data.get("m")
        for a in self.index.sites("assign"):
            d = a.data
            if (
                a.file == site.file
                and d["n"] == "BaseAddress"
                and d["t"] == owner
                and d["m"] == method
                and d.get("v")
            ):
                return self.index.fold(d["v"], site.owner.name if site.owner else None)
        return None

    # ------------------------------------------------------------------ gRPC

    def grpc(self) -> list[RawCall]:
        out: list[RawCall] = []
        addresses: dict[tuple[str, int], Parts] = {}
        for a in self.index.sites("assign"):
            if a.data["n"] == "Address" and a.data["p"] >= 0 and a.data.get("v"):
                addresses[(a.file, a.data["p"])] = a.data["v"]
        for file, data in self.index.files.items():
            types = data["types"]
            for k, d in enumerate(data.get("inv") or ()):
                if d.get("n") != "AddGrpcClient" or not d.get("g"):
                    continue
                service = grpc_client_service(d["g"][0]) or self._imported_client(file, d["g"][0])
                if service is None:
                    continue
                owner = types[d["t"]]["n"] if 0 <= d["t"] < len(types) else None
                parts = addresses.get((file, k))
                if parts is None:  # .ConfigureGrpcClient / options lambda on a chained call
                    parts = next(
                        (v for (f, p), v in addresses.items() if f == file and self._chained(file, p, k)),
                        None,
                    )
                url = self.index.expr(parts, owner) if parts else None
                out.append(RawCall("grpc", file, d["l"], d["e"], "grpc-client", url=url, grpc_service=service,
                                   component=owner))  # fmt: skip
        for site in self.index.sites("new"):
            service = grpc_client_service(site.data["ty"]) or self._imported_client(
                site.file, site.data["ty"]
            )
            if service is None:
                continue
            args = site.data.get("a") or []
            owner = site.owner.name if site.owner else None
            url = self.index.expr(args[0]["v"], owner) if args and "v" in args[0] else None
            if url is not None and all(type(p).__name__ == "Unknown" for p in url.parts):
                url = None
            out.append(RawCall("grpc", site.file, site.line, site.line, "grpc-client", url=url,
                               grpc_service=service, component=owner))  # fmt: skip
        return out

    def _imported_client(self, file: str, type_text: str) -> str | None:
        """``CatalogClient`` under ``using static CatalogApi.Catalog;``: a client of ``Catalog``."""
        name = simple(type_text)
        service = name.removesuffix("Client")
        return service if name.endswith("Client") and service in self.index.static_imports(file) else None

    def _chained(self, file: str, inner: int, registration: int) -> bool:
        inv = self.index.invocation(file, inner)
        for _ in range(6):
            if inv is None or "ri" not in inv:
                return False
            if inv["ri"] == registration:
                return True
            inv = self.index.invocation(file, inv["ri"])
        return False
