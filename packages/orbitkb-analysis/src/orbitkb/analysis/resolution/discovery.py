"""Client-side service discovery written as a URL scheme: ``stork://name/path`` (SmallRye Stork, the
Quarkus REST and gRPC clients' discovery) stands for the instances that ``name``'s configuration
lists (a static ``address-list``), or for the application a registry knows by ``application``
(Consul, Kubernetes), else for ``name`` itself — which the caller matches like any host.
"""

from __future__ import annotations

from collections.abc import Callable

from orbitkb.analysis.config.service_config import ServiceConfig
from orbitkb.analysis.facts import Expr, Prop
from orbitkb.analysis.resolution.urls import Address, parse_address
from orbitkb.analysis.resolution.values import Resolution, Sentinels, resolve

#: URL scheme -> the configuration prefixes of its services' discovery settings
DISCOVERY_SCHEMES: dict[str, tuple[str, ...]] = {"stork": ("quarkus.stork.", "stork.")}
#: settings of one discovered service, most specific first: an instance list, a registry's name for it
_SETTINGS = (("service-discovery.address-list", "http://"), ("service-discovery.application", "stork://"))


def discovered(
    addr: Address, config: ServiceConfig, marks: Sentinels, accept: Callable[[str], bool]
) -> tuple[Address, Resolution | None]:
    """``addr`` with a discovered service's name replaced by what its configuration says, and the
    configuration that said it (None when nothing did)."""
    prefixes = DISCOVERY_SCHEMES.get(addr.scheme or "")
    if not prefixes or addr.host is None:
        return addr, None
    for setting, scheme in _SETTINGS:
        for prefix in prefixes:
            key = f"{prefix}{addr.host}.{setting}"
            if config.props.get(key) is None:
                continue
            found = resolve(Expr((Prop(key),)), config, marks, _first_accepted(accept, scheme))
            first = _first(found.text)
            if not first:
                continue
            named = parse_address(scheme + first)
            return Address(named.scheme, named.host_region, named.host, named.port, addr.path), found
    return addr, None


def _first(listed: str) -> str:
    """The first instance of a comma-separated list (``orders-1:8080,orders-2:8080``)."""
    return listed.split(",", 1)[0].strip()


def _first_accepted(accept: Callable[[str], bool], scheme: str) -> Callable[[str], bool]:
    """``accept`` asked about the first instance of a listed value, written as an address."""

    def check(listed: str) -> bool:
        return accept(scheme + _first(listed))

    return check
