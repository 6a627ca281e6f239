"""Outbound calls at link time: body sites with injected client addresses, OpenFeign and Spring
HTTP-interface clients, @GrpcClient stubs, and calls through thin wrapper methods."""

from __future__ import annotations

import re
from typing import Any

from orbitkb.analysis.facts import Expr, Lit, Prop, RawCall, Unknown, placeholder
from orbitkb.analysis.gateways.calls import DISCOVERY_PROXY
from orbitkb.analysis.jvm import micronaut
from orbitkb.analysis.jvm.apis import (
    ann_values,
    first_mapping,
    mapped_methods,
    mapping_methods,
    mapping_paths,
)
from orbitkb.analysis.jvm.body import simple_type
from orbitkb.analysis.jvm.reach import Reach
from orbitkb.analysis.jvm.resolve import (
    CTOR_MARK,
    PARAM_MARK,
    ClassRef,
    ServiceIndex,
    join_path,
    merge,
    render,
)
from orbitkb.analysis.jvm.tables import ADDRESSED_TYPES, CLIENT_CUSTOMIZERS, DISCOVERY_PROXIES, QUARKUS_GRPC

_LB_HOST = re.compile(r"^(?:https?|lb|grpc|dns|static)://([A-Za-z0-9_-]+)(?::\d+)?(?:/|$)")
_NOT_SERVICES = {"localhost", "127", "0"}


def has_param(expr: Expr | None) -> bool:
    """A URL holding a method parameter or a constructor argument: its call sites fill it in."""
    return expr is not None and any(
        isinstance(p, Unknown) and p.hint.startswith((PARAM_MARK, CTOR_MARK)) for p in expr.parts
    )


def target_hint(url: Expr | None) -> str | None:
    """A service name written in a URL host: http://orders-service/x, lb://orders."""
    if url is None or not url.parts or not isinstance(url.parts[0], Lit):
        return None
    m = _LB_HOST.match(url.parts[0].text)
    if m and m.group(1) not in _NOT_SERVICES:
        return m.group(1)
    return None


def under(base: Expr | None, path: str) -> Expr:
    """A declared client's path under its base URL, joined by exactly one slash: a base ending in
    "/" (``url = "http://ledger:8080/"``) and a path starting with one give ``/levels``, not ``//levels``."""
    parts = list(base.parts) if base is not None else []
    if parts and isinstance(parts[-1], Lit) and path.startswith("/"):
        stripped = parts[-1].text.rstrip("/")
        if stripped.endswith(":"):
            pass  # "http://" before a host read from configuration
        elif stripped:
            parts[-1] = Lit(stripped)
        else:
            parts.pop()  # `${orders.url}/`
    return merge([*parts, Lit(path)])


def _rest_client_base(index: ServiceIndex, ref: ClassRef, keys: list[Any]) -> Expr:
    """The configured base URL of a MicroProfile REST client: under its ``configKey``, else its fully
    qualified interface name, in Quarkus's spelling first, then MicroProfile's ``<key>/mp-rest/url``."""
    if keys and isinstance(keys[0], list):
        key = render(index.resolve(keys[0], ref))
        quarkus = f"quarkus.rest-client.{key}.url"
    else:
        package = ref.file.get("package") or ""
        key = f"{package}.{ref.qname}" if package else ref.qname
        quarkus = f'quarkus.rest-client."{key}".url'
    return Expr((Prop(quarkus, placeholder(f"{key}/mp-rest/url")),))


class CallBuilder:
    def __init__(self, index: ServiceIndex, reach: Reach) -> None:
        self.index = index
        self.reach = reach
        self.calls: list[RawCall] = []
        #: (class, method, call) whose URL holds a method parameter: candidate thin wrappers
        self.templates: list[tuple[ClassRef, str, RawCall]] = []
        self._customized = self._customizer_bases()
        self._beans = self._addressed_beans()

    # ----------------------------------------------------------------- beans with addresses
    def _addressed_beans(self) -> dict[str, list[tuple[str, ClassRef, list[list[Any]]]]]:
        """@Bean methods returning a WebClient/RestClient/RestTemplate/ManagedChannel with an address."""
        out: dict[str, list[tuple[str, ClassRef, list[list[Any]]]]] = {}
        for ref in self.index.classes:
            for m in ref.data["methods"]:
                if not any(a[0] == "Bean" for a in m["anns"]):
                    continue
                rtype = simple_type(m["ret"])
                owner, target = ref, m.get("target")
                if target is None and rtype in ADDRESSED_TYPES:
                    owner, target = self._from_builder_param(m) or (ref, None)
                if rtype in ADDRESSED_TYPES and target is not None:
                    bean = next((a for a in m["anns"] if a[0] == "Bean"), None)
                    names = [v[0][1] for v in ann_values(bean, "name", "value") if isinstance(v, list) and v]
                    out.setdefault(rtype.removesuffix(".Builder"), []).append(
                        (names[0] if names else m["name"], owner, target)
                    )
        return out

    def _customizer_bases(self) -> dict[str, tuple[ClassRef, list[list[Any]]]]:
        """Client type -> the base URL a ``RestClientCustomizer``/``WebClientCustomizer`` @Bean sets on
        every builder Spring Boot injects (one customizer with an address per type, else none)."""
        found: dict[str, list[tuple[ClassRef, list[list[Any]]]]] = {}
        for ref in self.index.classes:
            for m in ref.data["methods"]:
                client = CLIENT_CUSTOMIZERS.get(simple_type(m["ret"]))
                if client and m.get("target") is not None and any(a[0] == "Bean" for a in m["anns"]):
                    found.setdefault(client, []).append((ref, m["target"]))
        return {client: beans[0] for client, beans in found.items() if len(beans) == 1}

    def _from_builder_param(self, m: dict[str, Any]) -> tuple[ClassRef, list[list[Any]]] | None:
        """A @Bean method building its client from an injected, customized builder (no base URL of
        its own): the customizer's address and the class it resolves in."""
        for _name, declared, _anns in m.get("params") or []:
            if simple_type(declared) in ("RestClient.Builder", "WebClient.Builder"):
                base = self._customized.get(simple_type(declared).removesuffix(".Builder"))
                if base is not None:
                    return base
        return None

    def _injected(self, ref: ClassRef, field_name: str) -> Expr | None:
        fld = ref.fields.get(field_name)
        if fld is None:
            return None
        if fld.get("target") is not None:
            return self.index.resolve(fld["target"], ref)
        beans = self._beans.get(simple_type(fld["type"]).removesuffix(".Builder"), [])
        qualifier = next((a for a in fld["anns"] if a[0] == "Qualifier"), None)
        wanted = [v[0][1] for v in ann_values(qualifier, "value") if isinstance(v, list) and v]
        for bean_name, owner, target in beans:
            if (wanted and bean_name == wanted[0]) or (not wanted and bean_name == field_name):
                return self.index.resolve(target, owner)
        if len(beans) == 1 and not wanted:
            return self.index.resolve(beans[0][2], beans[0][1])
        customized = self._customized.get(simple_type(fld["type"]).removesuffix(".Builder"))
        if not beans and customized is not None and simple_type(fld["type"]).endswith(".Builder"):
            return self.index.resolve(customized[1], customized[0])  # the builder Spring Boot injects
        return None

    # ----------------------------------------------------------------- sites
    def emit(self, ref: ClassRef, method: str, call: RawCall) -> None:
        handlers = self.reach.handlers(ref, method)
        if not handlers:
            self.calls.append(call)
        for h in handlers:
            self.calls.append(_with(call, api_handler=h))

    def sites(self, ref: ClassRef, m: dict[str, Any], site: dict[str, Any]) -> None:
        url = self.index.resolve(site.get("url"), ref, marks=True)
        if site.get("recv"):
            base = self._injected(ref, site["recv"])
            if base is not None:
                relative = url is None or (
                    url.parts and isinstance(url.parts[0], Lit) and url.parts[0].text.startswith("/")
                )
                if site["k"] == "grpc" or site["client"] != "RestTemplate" or relative:
                    url = base if site["k"] == "grpc" else merge([*base.parts, *(url.parts if url else ())])
        call = RawCall(
            kind=site["k"],
            file=ref.path,
            line=site["line"],
            end_line=site["end"],
            client=site["client"],
            url=url,
            method=site.get("method"),
            grpc_service=site.get("service"),
            target_hint=target_hint(url),
            component=ref.name,
        )
        if has_param(url):
            self.templates.append((ref, m["name"], call))
        self.emit(ref, m["name"], call)

    # ----------------------------------------------------------------- declarative clients
    def discovery_proxy(self, ref: ClassRef) -> None:
        """``@EnableZuulProxy``: the pipeline adds a route to each service registered with discovery."""
        ann = ref.ann(*DISCOVERY_PROXIES)
        if ann is not None:
            self.calls.append(
                RawCall("http", ref.path, ann[2], ann[2], DISCOVERY_PROXY, None, component=ref.name)
            )

    def declarative(self, ref: ClassRef) -> None:
        feign = ref.ann("FeignClient")
        exchange = ref.ann("HttpExchange")
        rest_client = ref.ann("RegisterRestClient")
        mn_client = micronaut.client(ref)
        if feign is None and rest_client is None and (exchange is None and ref.data["kind"] != "interface"):
            return
        name_hint: str | None = None
        if mn_client is not None:
            base, name_hint = micronaut.client_base(self.index, ref, mn_client)
            paths = [v for v in ann_values(mn_client, "path") if isinstance(v, list)]
            prefix = render(self.index.resolve(paths[0], ref)) if paths else ""
            client = "micronaut-client"
        elif feign is not None:
            names = ann_values(feign, "name", "value", "serviceId")
            name_expr = self.index.resolve(names[0], ref) if names and isinstance(names[0], list) else None
            name_hint = name_expr.literal() if name_expr is not None else None
            urls = ann_values(feign, "url")
            base = self.index.resolve(urls[0], ref) if urls and isinstance(urls[0], list) else None
            if base is not None and not base.parts:
                base = None
            if base is None and name_hint:
                base = Expr((Lit(f"http://{name_hint}"),))
            elif base is None and name_expr is not None and name_expr.parts:
                base = merge([Lit("http://"), *name_expr.parts])  # a name from configuration: ${clients.x}
            prefix = mapping_paths(self.index, feign, ref)[0] if ann_values(feign, "path") else ""
            if ann_values(feign, "path"):
                prefix = render(self.index.resolve(ann_values(feign, "path")[0], ref))
            client = "feign"
        elif rest_client is not None:
            keys = ann_values(rest_client, "configKey")
            uris = ann_values(rest_client, "baseUri")
            base = self.index.resolve(uris[0], ref) if uris else None
            if base is None:
                base = _rest_client_base(self.index, ref, keys)
            prefix = (
                render(self.index.resolve(ann_values(ref.ann("Path"), "value")[0], ref))
                if ref.ann("Path")
                else ""
            )
            client = "microprofile-rest-client"
            self._jaxrs_client(ref, base, prefix, client)
            return
        else:
            base = self._interface_base(ref)
            urls = ann_values(exchange, "url", "value")
            prefix = render(self.index.resolve(urls[0], ref)) if urls and isinstance(urls[0], list) else ""
            client = "http-interface"
        methods = mapped_methods(self.index, ref)
        if exchange is None and feign is None and mn_client is None:
            methods = [t for t in methods if (first_mapping(t[2]["anns"]) or ["?"])[0].endswith("Exchange")]
        for declared, owner, mapped in methods:
            ann = first_mapping(mapped["anns"])
            assert ann is not None
            for path in mapping_paths(self.index, ann, owner):
                full = join_path(prefix, path)
                url = under(base, full)
                for verb in mapping_methods(ann, ["ANY"]):
                    call = RawCall(
                        kind="http",
                        file=ref.path,
                        line=ann[2] if declared is mapped else declared["line"],
                        end_line=declared["end"],
                        client=client,
                        url=url,
                        method=None if verb == "ANY" else verb,
                        target_hint=name_hint or target_hint(url),
                        component=ref.name,
                    )
                    self._declared_call(ref, declared["name"], call)

    def _interface_base(self, ref: ClassRef) -> Expr | None:
        """The address of a Spring HTTP-interface client: the @Bean method returning it builds its
        proxy on a RestClient/WebClient with a base URL, in the method itself or a client bean it takes."""
        for owner in self.index.classes:
            for m in owner.data["methods"]:
                if simple_type(m["ret"]) != ref.name or not any(a[0] == "Bean" for a in m["anns"]):
                    continue
                if m.get("target") is not None:
                    return self.index.resolve(m["target"], owner)
                for name, declared, _anns in m.get("params") or []:
                    beans = self._beans.get(simple_type(declared).removesuffix(".Builder"), [])
                    named = [b for b in beans if b[0] == name] or (beans if len(beans) == 1 else [])
                    if named:
                        return self.index.resolve(named[0][2], named[0][1])
                customized = self._from_builder_param(m)
                if customized is not None:
                    return self.index.resolve(customized[1], customized[0])
        return None

    def _jaxrs_client(self, ref: ClassRef, base: Expr | None, prefix: str, client: str) -> None:
        for m in ref.data["methods"]:
            verbs = [a[0] for a in m["anns"] if a[0] in ("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD")]
            path_ann = next((a for a in m["anns"] if a[0] == "Path"), None)
            path = render(self.index.resolve(ann_values(path_ann, "value")[0], ref)) if path_ann else ""
            url = under(base, join_path(prefix, path))
            for verb in verbs:
                call = RawCall("http", ref.path, m["line"], m["end"], client, url, verb, component=ref.name)
                self._declared_call(ref, m["name"], call)

    def _declared_call(self, ref: ClassRef, method: str, call: RawCall) -> None:
        """A declared client method is a call site; handlers that invoke it (one hop) own it."""
        handlers = self.reach.handlers(ref, method)
        if not handlers:
            self.calls.append(call)
        for h in handlers:
            self.calls.append(_with(call, api_handler=h))

    def grpc_client_fields(self, ref: ClassRef) -> None:
        """grpc-spring-boot-starter: ``@GrpcClient("payments") PaymentServiceBlockingStub stub``
        (address ``grpc.client.payments.address``); Quarkus: ``@GrpcClient("payments")`` on a stub or
        on the service's generated interface (``MutinyPaymentsGrpc.MutinyPaymentsStub``, ``Payments``),
        address ``quarkus.grpc.clients.payments.host``/``.port``."""
        quarkus = any(i.startswith(QUARKUS_GRPC) for i in ref.file.get("imports", []))
        for fld in ref.data["fields"]:
            ann = next((a for a in fld["anns"] if a[0] == "GrpcClient"), None)
            if ann is None:
                continue
            values = ann_values(ann, "value")
            client_name = (
                render(self.index.resolve(values[0], ref)) if values and isinstance(values[0], list) else None
            )
            stub = simple_type(fld["type"]).rsplit(".", 1)[-1]
            service = None
            for suffix in (
                "BlockingV2Stub",
                "BlockingStub",
                "FutureStub",
                "CoroutineStub",
                "ReactorStub",
                "Stub",
            ):
                if stub.endswith(suffix) and stub != suffix:
                    service = stub[: -len(suffix)].removeprefix("Reactor").removeprefix("Mutiny")
                    break
            if quarkus:
                service = service or stub  # the generated interface is named as the service
                prefix = f"quarkus.grpc.clients.{client_name or fld['name']}"
                url: Expr | None = Expr((Prop(f"{prefix}.host"), Lit(":"), Prop(f"{prefix}.port", "9000")))
            else:
                url = Expr((Prop(f"grpc.client.{client_name}.address"),)) if client_name else None
            call = RawCall(
                kind="grpc",
                file=ref.path,
                line=fld["line"],
                end_line=fld["line"],
                client="quarkus-grpc" if quarkus else "grpc-spring-boot-starter",
                url=url,
                grpc_service=service,
                target_hint=client_name,
                component=ref.name,
            )
            self.calls.append(call)


def _with(call: RawCall, **changes: Any) -> RawCall:
    from attrs import evolve

    return evolve(call, **changes)
