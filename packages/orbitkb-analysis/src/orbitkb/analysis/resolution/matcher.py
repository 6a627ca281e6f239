"""Matching a host or a name to a service of this analysis: names, aliases, k8s DNS, variants, ports.

Exact names and aliases win; then Kubernetes DNS forms (``payments.default.svc.cluster.local``)
and OpenShift default route hosts (``payments-shop.apps.cluster.example.com``); then naming variants
(``payments`` ~ ``payments-service`` ~ ``payments-svc``); then, for localhost-like hosts only, a
published port owned by exactly one service. Ambiguity is no match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeVar

from attrs import frozen

LOCAL_HOSTS = frozenset(
    {"localhost", "127.0.0.1", "0.0.0.0", "host.docker.internal", "::1", "docker.for.mac.localhost"}
)
_Key = TypeVar("_Key")
_SUFFIXES = ("-service", "_service", "-svc", "_svc", "service", "svc", "-server", "-srv")
_K8S_DNS = re.compile(r"^([a-z0-9\-]+)(?:\.([a-z0-9\-]+))?\.svc(?:\.cluster\.local)?$")


@frozen
class Match:
    service: str
    how: str  # exact | dns | variant | port

    @property
    def inferred(self) -> bool:
        return self.how in ("variant", "port")


def _norm(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _variant(name: str) -> str:
    name = _norm(name)
    for suffix in _SUFFIXES:
        if name.endswith(suffix.replace("_", "-")) and len(name) > len(suffix) + 1:
            return name[: -len(suffix)].rstrip("-")
    return name


class ServiceIndex:
    def __init__(
        self,
        services: Iterable[tuple[str, Iterable[str], Iterable[int]]],
        namespaces: Iterable[str] = ("default",),
    ) -> None:
        self._exact: dict[str, set[str]] = {}
        self._variants: dict[str, set[str]] = {}
        self._ports: dict[int, set[str]] = {}
        self._namespaces = {n.lower() for n in namespaces} | {"default"}
        self.names: set[str] = set()
        for name, aliases, ports in services:
            self.names.add(name)
            for key in {name, *aliases}:
                self._exact.setdefault(_norm(key), set()).add(name)
                self._variants.setdefault(_variant(key), set()).add(name)
            for port in ports:
                self._ports.setdefault(port, set()).add(name)

    def _unique(self, table: dict[_Key, set[str]], key: _Key) -> str | None:
        found = table.get(key, set())
        return next(iter(found)) if len(found) == 1 else None

    def match(self, host: str | None, port: int | None = None) -> Match | None:
        if not host:
            return None
        host = _norm(host)
        exact = self._exact.get(host, set())
        if len(exact) == 1:
            return Match(next(iter(exact)), "exact")
        if host in self.names:  # the service's own name beats another one's alias
            return Match(host, "exact")
        dns = _K8S_DNS.match(host)
        labels = host.split(".")
        short = (
            dns.group(1) if dns else labels[0] if len(labels) == 2 and labels[1] in self._namespaces else None
        )
        short = short or self._route_host(labels)
        if short and (found := self._unique(self._exact, short)):
            return Match(found, "dns")
        if host in LOCAL_HOSTS:
            found = self._unique(self._ports, port) if port is not None else None
            return Match(found, "port") if found else None
        if "." in host:
            return None  # a real domain name: never a naming variant of a service
        found = self._unique(self._variants, _variant(host))
        return Match(found, "variant") if found else None

    def _route_host(self, labels: list[str]) -> str | None:
        """The route of an OpenShift default host ``<route>-<namespace>.apps.<cluster domain>``, for a
        namespace of this deployment."""
        if len(labels) < 3 or labels[1] != "apps":
            return None
        for namespace in sorted(self._namespaces, key=len, reverse=True):
            if labels[0].endswith("-" + namespace) and len(labels[0]) > len(namespace) + 1:
                return labels[0][: -len(namespace) - 1]
        return None

    def named(self, word: str) -> Match | None:
        """The service a bare word names (``user-service``), as a host would, else the one service
        whose name ends with it (``shop-user-service``, ``lumen-user-service``)."""
        found = self.match(word)
        if found or "." in word or _norm(word) in LOCAL_HOSTS:
            return found
        tail = "-" + _variant(word)
        ends = {name for key, names in self._variants.items() if key.endswith(tail) for name in names}
        return Match(next(iter(ends)), "variant") if len(ends) == 1 else None
