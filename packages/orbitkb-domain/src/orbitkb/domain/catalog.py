"""Name resolution over the services in the knowledge model: by name, alias, ``repo/name``, a
host (``payments:8080``, ``payments.shop.svc.cluster.local``) or a close spelling."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from orbitkb.domain.errors import ServiceNotFound
from orbitkb.domain.integrations import host_of
from orbitkb.domain.model import Service
from orbitkb.domain.text import normalize_name


def qualified_names(services: Iterable[Service]) -> dict[str, str]:
    """Service id -> the name to show and to ask by: the plain name, or ``repository/name`` when
    services of several repositories share it (the form ``ServiceCatalog.lookup`` resolves)."""
    services = list(services)
    repos: dict[str, set[str]] = {}
    for s in services:
        repos.setdefault(s.name.lower(), set()).add(s.repository)
    return {s.id: f"{s.repository}/{s.name}" if len(repos[s.name.lower()]) > 1 else s.name for s in services}


def _keys(service: Service) -> list[str]:
    names = [service.name, *service.aliases]
    keys = []
    for n in names:
        keys.append(n.lower())
        keys.append(normalize_name(n))
    return keys


class ServiceCatalog:
    def __init__(self, services: Iterable[Service]) -> None:
        self.services = sorted(services, key=lambda s: (s.name, s.repository))
        self._by_key: dict[str, list[Service]] = {}
        for s in self.services:
            for k in dict.fromkeys(_keys(s)):
                self._by_key.setdefault(k, []).append(s)
            self._by_key.setdefault(f"{s.repository}/{s.name}".lower(), []).append(s)

    def __len__(self) -> int:
        return len(self.services)

    def match_target(self, target: str) -> Service | None:
        """The one service a call target names, or None when none or several match."""
        host = host_of(target) if ("/" in target or ":" in target or "." in target) else target.lower()
        candidates = [host]
        if "." in host:
            candidates.append(host.split(".", 1)[0])  # k8s DNS: payments.ns.svc.cluster.local
        for c in candidates:
            for key in (c, normalize_name(c)):
                found = self._by_key.get(key)
                if found and len({s.id for s in found}) == 1:
                    return found[0]
        return None

    def lookup(self, name: str) -> Service:
        """Exactly one service for a user-given name; ServiceNotFound listing close names otherwise."""
        key = name.strip().lower()
        found = self._by_key.get(key) or self._by_key.get(normalize_name(key)) or []
        unique = {s.id: s for s in found}
        if len(unique) == 1:
            return next(iter(unique.values()))
        if len(unique) > 1:
            exact = [s for s in unique.values() if s.name.lower() == key]
            if len(exact) == 1:
                return exact[0]
            names = sorted(f"{s.repository}/{s.name}" for s in unique.values())
            raise ServiceNotFound(f"service name {name!r} is ambiguous", tuple(names),
                                  hint="qualify it as repository/name: " + ", ".join(names))
        raise ServiceNotFound(f"unknown service: {name!r}", self.suggest(name))

    def suggest(self, name: str, n: int = 5) -> tuple[str, ...]:
        pool = sorted({s.name for s in self.services})
        close = difflib.get_close_matches(name.lower(), pool, n=n, cutoff=0.4)
        if not close:
            close = [p for p in pool if name.lower() in p or p in name.lower()][:n]
        return tuple(close)

    def names(self) -> Sequence[str]:
        return [s.name for s in self.services]
