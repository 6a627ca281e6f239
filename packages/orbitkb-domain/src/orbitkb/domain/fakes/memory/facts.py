"""The in-memory facts roles — ``FactsWriter``, ``FactsReader``, ``ModelReader`` and ``IndexLedger``:
a repository's snapshot replaced in one step (checked first, then only assignments, so a refused
write leaves nothing half done), read back in the SQLite store's orders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import attrs

from orbitkb.domain.errors import RepositoryNotFound, StoreError
from orbitkb.domain.fakes.memory.state import CHILD_KINDS, MemoryState, by
from orbitkb.domain.model import (
    Api,
    Component,
    Gap,
    Message,
    PersistenceEntity,
    Repository,
    Resource,
    Service,
    ServiceCall,
    ServiceFacts,
    Technology,
)
from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import IndexedFile
from orbitkb.domain.system_model import SystemModel


class MemoryFacts(MemoryState):
    # -- repositories
    def upsert_repository(self, repo: Repository, *, if_indexed: bool = False) -> None:
        with self._lock:
            if if_indexed:
                self._require_indexed(repo.name)
            self._repos[repo.name] = repo
            self._changed()

    def _require_indexed(self, name: str) -> None:
        if name not in self._repos:
            raise RepositoryNotFound(
                f"repository {name!r} is no longer indexed (it was removed)",
                hint=f"index it again with orbitkb index PATH --repository-name {name}",
            )

    def _drop_services_of(self, repository: str) -> None:
        """Forget the repository's services and every child they own (the caller holds the lock)."""
        gone = {sid for sid, s in self._services.items() if s.repository == repository}
        for sid in gone:
            del self._services[sid]
        for kind, owner in CHILD_KINDS.items():
            table = self._children[kind]
            for cid in [cid for cid, c in table.items() if getattr(c, owner) in gone]:
                del table[cid]

    def remove_repository(self, name: str) -> bool:
        with self._lock:
            if name not in self._repos:
                return False
            del self._repos[name]
            self._drop_services_of(name)
            for held in (self._resources, self._gaps, self._files, self._docs):
                held.pop(name, None)
            self._changed()
            return True

    def get_repository(self, name: str) -> Repository | None:
        return self._repos.get(name)

    def list_repositories(self) -> list[Repository]:
        with self._lock:
            return sorted(self._repos.values(), key=by("name"))

    # -- facts
    def replace_repository_facts(
        self,
        repository: Repository,
        services: Sequence[ServiceFacts],
        resources: Sequence[Resource],
        gaps: Sequence[Gap],
        files: Sequence[IndexedFile],
        documents: Iterable[SearchDocument],
        *,
        if_indexed: bool = False,
    ) -> None:
        name = repository.name
        facts = {f.service.id: f for f in reversed(services)}  # the first occurrence of an id wins
        with self._lock:
            if if_indexed:
                self._require_indexed(name)
            for sid in facts:
                other = self._services.get(sid)
                if other is not None and other.repository != name:
                    raise StoreError(f"service id {sid} already belongs to repository {other.repository}")
            mine = set(facts) | {sid for sid, s in self._services.items() if s.repository == name}
            children: dict[str, dict[str, Any]] = {kind: {} for kind in CHILD_KINDS}
            for f in facts.values():
                for kind, owner in CHILD_KINDS.items():
                    for child in getattr(f, kind):
                        held = self._children[kind].get(child.id)
                        if held is not None and getattr(held, owner) not in mine:
                            raise StoreError(f"{kind[:-1]} id {child.id} already belongs to another service")
                        children[kind].setdefault(child.id, child)
            docs = list(documents)
            # Everything is computed above; below only assignments, so a failure leaves no half.
            self._repos[name] = repository
            self._drop_services_of(name)
            for kind in CHILD_KINDS:
                self._children[kind].update(children[kind])
            for f in facts.values():
                self._services[f.service.id] = attrs.evolve(f.service, repository=name)
            self._resources[name] = [_own(r, name) for r in resources]
            self._gaps[name] = [_own(g, name) for g in gaps]
            self._files[name] = {}
            for file in files:
                self._files[name].setdefault(file.path, _own(file, name))
            self._docs[name] = docs
            self._changed()

    def update_calls(self, calls: Sequence[ServiceCall]) -> None:
        latest = {c.id: c for c in calls}  # a later duplicate id wins, as sequential writes would
        with self._lock:
            table = self._children["calls"]
            for call in latest.values():
                if call.id not in table and call.from_service_id not in self._services:
                    raise StoreError(
                        f"call {call.id} comes from service {call.from_service_id}, which is not stored"
                    )
            # Checked above; below only assignments, so a refused batch writes nothing.
            for cid, call in latest.items():
                held = table.get(cid)
                table[cid] = (
                    call if held is None else attrs.evolve(call, from_service_id=held.from_service_id)
                )
            self._changed()

    def list_services(self, repository: str | None = None) -> list[Service]:
        with self._lock:
            found = [s for s in self._services.values() if repository is None or s.repository == repository]
        return sorted(found, key=by("repository", "name", "id"))

    def get_service_by_id(self, service_id: str) -> Service | None:
        return self._services.get(service_id)

    def _children_of(self, kind: str, **filters: str | None) -> list[Any]:
        with self._lock:
            items = list(self._children[kind].values())
        for attr, value in filters.items():
            if value is not None:
                items = [c for c in items if getattr(c, attr) == value]
        return sorted(items, key=_ORDERS[kind])

    def list_components(self, service_id: str | None = None) -> list[Component]:
        return self._children_of("components", service_id=service_id)

    def list_apis(self, service_id: str | None = None) -> list[Api]:
        return self._children_of("apis", service_id=service_id)

    def count_apis(self) -> dict[str, int]:
        with self._lock:
            return dict(Counter(a.service_id for a in self._children["apis"].values()))

    def list_calls(
        self, from_service_id: str | None = None, to_service_id: str | None = None
    ) -> list[ServiceCall]:
        return self._children_of("calls", from_service_id=from_service_id, to_service_id=to_service_id)

    def list_calls_to_target(self, targets: Sequence[str]) -> list[ServiceCall]:
        wanted = set(targets)
        return [c for c in self._children_of("calls") if c.target in wanted]

    def list_messages(self, service_id: str | None = None, channel: str | None = None) -> list[Message]:
        return self._children_of("messages", service_id=service_id, channel=channel)

    def list_entities(self, service_id: str | None = None) -> list[PersistenceEntity]:
        return self._children_of("entities", service_id=service_id)

    def list_technologies(self, service_id: str | None = None) -> list[Technology]:
        return self._children_of("technologies", service_id=service_id)

    def list_resources(self, repository: str | None = None) -> list[Resource]:
        with self._lock:
            found = [
                r for repo, rs in sorted(self._resources.items()) if repository in (None, repo) for r in rs
            ]
        return sorted(found, key=by("repository", "name", "kind", "engine"))

    def list_gaps(self, repository: str | None = None) -> list[Gap]:
        with self._lock:
            found = [g for repo, gs in sorted(self._gaps.items()) if repository in (None, repo) for g in gs]
        return sorted(found, key=by("repository", "path", "kind", "reason"))

    def list_indexed_files(self, repository: str) -> list[IndexedFile]:
        with self._lock:
            return sorted(self._files.get(repository, {}).values(), key=by("path"))

    # -- enrichment: descriptive fields only, unknown ids skipped
    def _rewrite(self, table: dict[str, Any], items: Iterable[Any], fields: Sequence[str]) -> None:
        with self._lock:
            for item in items:
                if item.id in table:
                    table[item.id] = attrs.evolve(table[item.id], **{f: getattr(item, f) for f in fields})
            self._changed()

    def update_services(self, services: Sequence[Service]) -> None:
        self._rewrite(self._services, services, ("short_desc", "long_desc", "desc_provenance"))

    def update_apis(self, apis: Sequence[Api]) -> None:
        self._rewrite(self._children["apis"], apis, _API_DESCRIPTIVE)

    def update_components(self, components: Sequence[Component]) -> None:
        self._rewrite(self._children["components"], components, ("summary", "summary_provenance"))

    def update_entities(self, entities: Sequence[PersistenceEntity]) -> None:
        self._rewrite(self._children["entities"], entities, ("description",))

    def update_messages(self, messages: Sequence[Message]) -> None:
        self._rewrite(self._children["messages"], messages, ("description",))

    # -- the whole snapshot
    def snapshot_fingerprint(self) -> str:
        return f"memory:{id(self):x}:{self._snapshot}"

    def load_model(self) -> SystemModel:
        with self._lock:
            return SystemModel(
                self.snapshot_fingerprint(),
                tuple(self.list_repositories()),
                tuple(self.list_services()),
                tuple(self.list_components()),
                tuple(self.list_apis()),
                tuple(self.list_calls()),
                tuple(self.list_messages()),
                tuple(self.list_entities()),
                tuple(self.list_technologies()),
                tuple(self.list_resources()),
            )


_API_DESCRIPTIVE = (
    "summary",
    "description",
    "summary_provenance",
    "validations",
    "request_shape",
    "response_shape",
)
_ORDERS = {
    "components": by("service_id", "file_path", "start_line", "name", "id"),
    "apis": by("service_id", "path", "method", "id"),
    "calls": by("from_service_id", "target", "id"),
    "entities": by("service_id", "name", "id"),
    "messages": by("service_id", "channel", "direction", "id"),
    "technologies": by("service_id", "kind", "name", "id"),
}
_Owned = TypeVar("_Owned", Resource, Gap, IndexedFile)


def _own(obj: _Owned, repository: str) -> _Owned:
    return obj if obj.repository == repository else attrs.evolve(obj, repository=repository)
