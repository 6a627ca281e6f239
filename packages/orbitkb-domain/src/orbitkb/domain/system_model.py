"""SystemModel: one typed, frozen snapshot of the System Knowledge Model, indexed for reading.

A ``ModelReader`` loads it in one consistent read; readers that look at many facts per answer
(describe, relationships, trace, smells, the change surface) ask it instead of the store, so an
answer costs dictionary look-ups, not queries. It answers the ``FactsReader`` questions
(``list_apis(service_id)``, ``list_calls(to_service_id=...)``...) with the same results, in the
same orders, as the store it was read from. Indexes are built once at load; the service graph
and the catalog on first use. Treat every collection it hands out as read-only.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from attrs import field, frozen

from orbitkb.domain.architecture.graph import SystemGraph
from orbitkb.domain.catalog import ServiceCatalog, qualified_names
from orbitkb.domain.model import (
    Api,
    Component,
    Message,
    PersistenceEntity,
    Repository,
    Resource,
    Service,
    ServiceCall,
    Technology,
)

T = TypeVar("T")


def _group(items: Sequence[T], key: Callable[[T], str | None]) -> dict[str, tuple[T, ...]]:
    out: dict[str, list[T]] = defaultdict(list)
    for item in items:
        k = key(item)
        if k is not None:
            out[k].append(item)
    return {k: tuple(v) for k, v in out.items()}


@frozen(eq=False)
class SystemModel:
    """Every fact of every indexed repository, as read at ``fingerprint``."""

    fingerprint: str
    repositories: tuple[Repository, ...] = ()
    services: tuple[Service, ...] = ()
    components: tuple[Component, ...] = ()
    apis: tuple[Api, ...] = ()
    calls: tuple[ServiceCall, ...] = ()
    messages: tuple[Message, ...] = ()
    entities: tuple[PersistenceEntity, ...] = ()
    technologies: tuple[Technology, ...] = ()
    resources: tuple[Resource, ...] = ()
    # indexes, built from the facts above
    repository_by_name: dict[str, Repository] = field(init=False)
    service_by_id: dict[str, Service] = field(init=False)
    #: service id -> the name to show and ask by (``repository/name`` when names collide)
    labels: dict[str, str] = field(init=False)
    components_of: dict[str, tuple[Component, ...]] = field(init=False)
    apis_of: dict[str, tuple[Api, ...]] = field(init=False)
    api_by_id: dict[str, Api] = field(init=False)
    calls_from: dict[str, tuple[ServiceCall, ...]] = field(init=False)
    calls_to: dict[str, tuple[ServiceCall, ...]] = field(init=False)
    calls_by_target: dict[str, tuple[ServiceCall, ...]] = field(init=False)
    messages_of: dict[str, tuple[Message, ...]] = field(init=False)
    messages_on: dict[str, tuple[Message, ...]] = field(init=False)
    entities_of: dict[str, tuple[PersistenceEntity, ...]] = field(init=False)
    technologies_of: dict[str, tuple[Technology, ...]] = field(init=False)
    _derived: dict[str, Any] = field(init=False)
    _lock: threading.RLock = field(init=False)

    def __attrs_post_init__(self) -> None:
        put = object.__setattr__
        put(self, "repository_by_name", {r.name: r for r in self.repositories})
        put(self, "service_by_id", {s.id: s for s in self.services})
        put(self, "labels", qualified_names(self.services))
        put(self, "components_of", _group(self.components, lambda c: c.service_id))
        put(self, "apis_of", _group(self.apis, lambda a: a.service_id))
        put(self, "api_by_id", {a.id: a for a in self.apis})
        put(self, "calls_from", _group(self.calls, lambda c: c.from_service_id))
        put(self, "calls_to", _group(self.calls, lambda c: c.to_service_id))
        put(self, "calls_by_target", _group(self.calls, lambda c: c.target))
        put(self, "messages_of", _group(self.messages, lambda m: m.service_id))
        put(self, "messages_on", _group(self.messages, lambda m: m.channel))
        put(self, "entities_of", _group(self.entities, lambda e: e.service_id))
        put(self, "technologies_of", _group(self.technologies, lambda t: t.service_id))
        put(self, "_derived", {})
        put(self, "_lock", threading.RLock())  # a build may ask for another derived value

    # -- derived once, on first use
    def derived(self, key: str, build: Callable[[], T]) -> T:
        """A value computed once per snapshot (the graph, a catalog, a reader's own index)."""
        try:
            return self._derived[key]  # type: ignore[no-any-return]
        except KeyError:
            pass
        with self._lock:
            if key not in self._derived:
                self._derived[key] = build()
            return self._derived[key]  # type: ignore[no-any-return]

    @property
    def graph(self) -> SystemGraph:
        return self.derived("graph", lambda: SystemGraph(self.services, self.calls, self.messages))

    @property
    def catalog(self) -> ServiceCatalog:
        return self.derived("catalog", lambda: ServiceCatalog(self.services))

    @property
    def is_empty(self) -> bool:
        return not self.services

    # -- FactsReader: the store's questions, answered from memory in the store's orders
    def get_repository(self, name: str) -> Repository | None:
        return self.repository_by_name.get(name)

    def list_repositories(self) -> list[Repository]:
        return list(self.repositories)

    def list_services(self, repository: str | None = None) -> list[Service]:
        if repository is None:
            return list(self.services)
        return [s for s in self.services if s.repository == repository]

    def get_service_by_id(self, service_id: str) -> Service | None:
        return self.service_by_id.get(service_id)

    def list_components(self, service_id: str | None = None) -> list[Component]:
        return list(self.components if service_id is None else self.components_of.get(service_id, ()))

    def list_apis(self, service_id: str | None = None) -> list[Api]:
        return list(self.apis if service_id is None else self.apis_of.get(service_id, ()))

    def count_apis(self) -> dict[str, int]:
        return {sid: len(apis) for sid, apis in self.apis_of.items()}

    def list_calls(self, from_service_id: str | None = None, to_service_id: str | None = None) -> list[ServiceCall]:
        if from_service_id is not None:
            calls = self.calls_from.get(from_service_id, ())
            return [c for c in calls if to_service_id is None or c.to_service_id == to_service_id]
        if to_service_id is not None:
            return list(self.calls_to.get(to_service_id, ()))
        return list(self.calls)

    def list_calls_to_target(self, targets: Sequence[str]) -> list[ServiceCall]:
        found = {c.id: c for t in set(targets) for c in self.calls_by_target.get(t, ())}
        return sorted(found.values(), key=lambda c: (c.from_service_id, c.target, c.id))

    def list_messages(self, service_id: str | None = None, channel: str | None = None) -> list[Message]:
        if service_id is not None:
            return [m for m in self.messages_of.get(service_id, ()) if channel is None or m.channel == channel]
        if channel is not None:
            return list(self.messages_on.get(channel, ()))
        return list(self.messages)

    def list_entities(self, service_id: str | None = None) -> list[PersistenceEntity]:
        return list(self.entities if service_id is None else self.entities_of.get(service_id, ()))

    def list_technologies(self, service_id: str | None = None) -> list[Technology]:
        return list(self.technologies if service_id is None else self.technologies_of.get(service_id, ()))

    def list_resources(self, repository: str | None = None) -> list[Resource]:
        if repository is None:
            return list(self.resources)
        return [r for r in self.resources if r.repository == repository]
