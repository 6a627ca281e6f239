"""RemoveRepository: forget one repository's knowledge, keep everything else.

Business rules:
- The repository's snapshot goes in one transaction (services and all they own, resources, gaps,
  indexed files, search documents); its embeddings follow. History stays: index runs,
  change-surface runs, feedback and verifications still explain past answers.
- Calls from other repositories that pointed at a removed service are resolved again against what
  is left (usually: an unmapped internal target), never left pointing at nothing.
- A refresh or update racing the removal cannot bring it back: their writes are conditional on
  the repository still being indexed (``if_indexed``).
"""

from __future__ import annotations

from attrs import evolve, frozen

from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.errors import RepositoryNotFound
from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.usecases.reconcile import classify_call


@frozen
class RemovalResult:
    repository: str
    root_path: str
    services: tuple[str, ...]
    files: int
    #: Calls of other repositories that named a removed service, now resolved again.
    calls_unresolved: int


@frozen
class RemoveRepository:
    store: KnowledgeStore

    def __call__(self, name: str) -> RemovalResult:
        repo = self.store.get_repository(name)
        if repo is None:
            known = tuple(r.name for r in self.store.list_repositories())
            raise RepositoryNotFound(f"repository {name!r} is not indexed", known)
        services = self.store.list_services(name)
        ids = {s.id for s in services}
        owned = [*ids]
        for sid in ids:
            owned += [a.id for a in self.store.list_apis(sid)]
            owned += [e.id for e in self.store.list_entities(sid)]
            owned += [m.id for m in self.store.list_messages(sid)]
            owned += [c.id for c in self.store.list_components(sid)]
        files = len(self.store.list_indexed_files(name))
        if not self.store.remove_repository(name):  # removed meanwhile by another process
            raise RepositoryNotFound(f"repository {name!r} is not indexed")
        if owned:
            self.store.delete_embeddings(owned)
        dangling = [c for sid in sorted(ids) for c in self.store.list_calls(to_service_id=sid)]
        if dangling:
            catalog = ServiceCatalog(self.store.list_services())
            self.store.update_calls([
                classify_call(evolve(c, to_service_id=None, to_api_id=None), catalog) for c in dangling
            ])
        return RemovalResult(name, repo.root_path, tuple(sorted(s.name for s in services)), files, len(dangling))
