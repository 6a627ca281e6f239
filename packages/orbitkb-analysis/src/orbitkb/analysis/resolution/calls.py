"""Outbound calls resolved to their targets: address -> host -> service of this analysis.

Confidence: 1.0 when the host comes from a literal or from configuration and names a service
(or an external host) exactly; 0.7 when the service was found by a hint (Feign name, ``lb://``
name, gRPC service implemented elsewhere, an unset ``USERS_SERVICE_URL`` naming one service), a
naming variant or a localhost port; 0.5 when the host is the code's fallback default and names no
service; 0.3 when nothing but a variable name is known — the call is then kept with a readable
target such as ``${PAYMENTS_URL}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from attrs import frozen

from orbitkb.analysis.config.model import ConfigValue
from orbitkb.analysis.config.service_config import ServiceConfig
from orbitkb.analysis.facts import Expr
from orbitkb.analysis.grpc.services import GrpcIndex
from orbitkb.analysis.layout.ingress import IngressRoute, route_for
from orbitkb.analysis.resolution.apimatch import match_api, match_grpc, match_route
from orbitkb.analysis.resolution.discovery import discovered
from orbitkb.analysis.resolution.matcher import LOCAL_HOSTS, ServiceIndex
from orbitkb.analysis.resolution.urls import Address, parse_address
from orbitkb.analysis.resolution.values import Resolution, Sentinels, resolve
from orbitkb.domain.model import Api

HTTP_VERBS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
#: Endings of a variable that holds another service's base address (``USER_SERVICE_URL``, ``BILLING_HOST``).
ADDRESS_ENDINGS = ("_BASE_URL", "_BASE_URI", "_URL", "_URI", "_HOST", "_ADDR", "_ADDRESS", "_ENDPOINT")
#: Words such a variable uses for the service's own address, or too vague to name another one.
_OWN_ADDRESS = frozenset({"app", "api", "base", "server", "host", "site", "self", "public", "root", "local"})
_WHOLE_MARK = re.compile("\x00(\\d+)\x00(?::\\d+)?")


@frozen
class CallTarget:
    target: str
    to_service: str | None
    confidence: float
    method: str | None
    path: str | None
    to_api: Api | None
    config: tuple[ConfigValue, ...]


class CallResolver:
    def __init__(
        self,
        index: ServiceIndex,
        grpc: GrpcIndex,
        implementers: Mapping[str, Sequence[str]],  # proto full name -> service names
        apis: Mapping[str, Sequence[Api]],  # service name -> its APIs
        ingress: Sequence[IngressRoute] = (),  # the repository's Kubernetes Ingress routes
    ) -> None:
        self._index = index
        self._grpc = grpc
        self._implementers = implementers
        self._apis = apis
        self._ingress = ingress
        self._ingress_hosts = {r.host for r in ingress if r.host}

    def _accept(self, text: str) -> bool:
        addr = parse_address(text)
        return addr.host is not None and self._index.match(addr.host, addr.port) is not None

    def resolve(
        self,
        config: ServiceConfig,
        kind: str,
        url: Expr | None,
        method: str | None = None,
        grpc_service: str | None = None,
        target_hint: str | None = None,
        route_path: str | None = None,
    ) -> CallTarget:
        marks = Sentinels()
        res = resolve(url, config, marks, self._accept) if url is not None and url.parts else None
        addr = parse_address(res.text) if res is not None else None
        if addr is not None and res is not None:
            addr, listed = discovered(addr, config, marks, self._accept)
            if listed is not None:
                res = Resolution(res.text, (*res.evidence, *listed.evidence), res.kinds)
        from_default = bool(res and res.kinds and res.kinds[0] == "default")
        host = addr.host if addr else None
        match = self._index.match(host, addr.port) if host and addr else None
        target, to, confidence = None, None, 0.3
        if match:
            target, to = match.service, match.service
            confidence = 0.7 if match.inferred else 1.0
        if to is None and target_hint:
            hinted = self._index.match(target_hint)
            if hinted:
                target, to, confidence = hinted.service, hinted.service, 0.7
        proto = self._grpc.find(grpc_service) if grpc_service else None
        if to is None and grpc_service:
            key = proto.full_name if proto else grpc_service.rsplit(".", 1)[-1]
            owners = sorted(set(self._implementers.get(key, ())))
            if len(owners) == 1:
                target, to, confidence = owners[0], owners[0], 0.7
        if to is None and addr is not None and self._via_ingress(addr):
            route = route_for(self._ingress, addr.path)
            routed = self._index.match(route.service) if route else None
            if routed:
                target, to, confidence = routed.service, routed.service, 0.7
        if to is None and (named := self._named_by_variable(addr, marks)):
            target, to, confidence = named, named, 0.7
        if to is None and host in LOCAL_HOSTS and res is not None and (named := self._named_by_key(res.evidence)):
            target, to, confidence = named, named, 0.7
        if target is None:
            target, confidence = self._fallback_target(
                addr, marks, host, from_default, target_hint, grpc_service
            )
        rpc_method = method if method and method.upper() not in HTTP_VERBS else None
        if kind == "grpc":
            service_name = proto.full_name if proto else grpc_service
            path: str | None = f"{service_name}/{rpc_method}" if service_name and rpc_method else None
            verb: str | None = "RPC"
        else:
            path = route_path or (addr.path if addr else None)
            verb = method.upper() if method else None
        to_api = None
        if to is not None and path:
            callee = self._apis.get(to, ())
            if route_path:  # a gateway route: the one API its pattern covers; its path stays
                to_api = match_route(verb, path, callee) if kind == "http" else None
            else:
                to_api = match_grpc(verb, path, callee) if kind == "grpc" else match_api(verb, path, callee)
        if to_api is not None and not route_path:
            path = to_api.path  # as the callee declares it, so readers see one spelling per API
        readable_path = marks.readable(path) if path else None
        return CallTarget(target, to, confidence, verb, readable_path, to_api, res.evidence if res else ())

    def _named_by_variable(self, addr: Address | None, marks: Sentinels) -> str | None:
        """The service named by an environment variable set nowhere in the repository when it stands
        for the whole host: ``env('USER_SERVICE_URL') . '/api/users'`` -> ``user-service``."""
        if addr is None or addr.host is not None:
            return None
        whole = _WHOLE_MARK.fullmatch(addr.host_region.strip())
        if whole is None:
            return None
        readable, kind = marks.items[int(whole.group(1))]
        name = readable[2:-1].upper()
        ending = next((e for e in ADDRESS_ENDINGS if name.endswith(e) and len(name) > len(e)), None)
        if kind != "env" or ending is None:
            return None
        word = name[: -len(ending)].lower().replace("_", "-")
        found = self._index.named(word) if word not in _OWN_ADDRESS else None
        return found.service if found else None

    def _named_by_key(self, evidence: Sequence[ConfigValue]) -> str | None:
        """A local address no service owns (``http://${DOCKER_HOST_IP:localhost}:8082``, a developer's
        default) read from a property whose name says whose address it is:
        ``customer.destinations.customerServiceUrl`` -> ``customer-service``."""
        for value in evidence:
            last = value.key.rsplit(".", 1)[-1]
            name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", last).replace("-", "_").upper()
            ending = next((e for e in ADDRESS_ENDINGS if name.endswith(e) and len(name) > len(e)), None)
            word = name[: -len(ending)].lower().replace("_", "-") if ending else None
            found = self._index.named(word) if word and word not in _OWN_ADDRESS else None
            if found:
                return found.service
        return None

    def _via_ingress(self, addr: Address) -> bool:
        """A request the repository's Ingress receives: a relative URL (a page it serves calling
        its own origin), the host of an Ingress rule, or an ingress controller's host."""
        if not self._ingress:
            return False
        if addr.relative:
            return True
        host = (addr.host or "").lower()
        return host in self._ingress_hosts or "ingress" in host.split(".")[0]

    def _fallback_target(
        self, addr: Address | None, marks: Sentinels, host: str | None, from_default: bool,
        hint: str | None, grpc_service: str | None,
    ) -> tuple[str, float]:  # fmt: skip
        if host:
            port = f":{addr.port}" if addr and addr.port and host in LOCAL_HOSTS else ""
            return host + port, 0.5 if from_default or host in LOCAL_HOSTS else 1.0
        if hint:
            return hint, 0.7
        if grpc_service:
            return grpc_service, 0.5
        if addr is not None and addr.relative:
            return "(relative)", 0.3
        if addr is not None and addr.host_region:
            return marks.readable(addr.host_region).strip() or "unknown", 0.3
        return "unknown", 0.3
