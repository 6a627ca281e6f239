"""ExportSnapshot: the whole knowledge model as one document, for `orbitkb export json` and for
the Markdown / Mermaid / Backstage renderers. Read from the store only; no LLM, no source."""

from __future__ import annotations

from attrs import frozen

from orbitkb.domain.errors import RepositoryNotFound
from orbitkb.domain.freshness import FreshnessProbe
from orbitkb.domain.model import Freshness, Gap, Repository, Resource, ServiceFacts
from orbitkb.domain.ports import GitReader, KnowledgeStore
from orbitkb.domain.usecases._clock import Clock, utc_now

EXPORT_SCHEMA_VERSION = 1


@frozen
class RepositorySnapshot:
    repository: Repository
    freshness: Freshness


@frozen
class KnowledgeSnapshot:
    schema_version: int
    generated_at: str
    repositories: tuple[RepositorySnapshot, ...]
    services: tuple[ServiceFacts, ...]
    resources: tuple[Resource, ...]
    gaps: tuple[Gap, ...]


@frozen
class ExportSnapshot:
    store: KnowledgeStore
    git: GitReader | None = None
    clock: Clock = utc_now

    def __call__(self, repository: str | None = None) -> KnowledgeSnapshot:
        probe = FreshnessProbe(self.git)
        known = self.store.list_repositories()
        repos = [r for r in known if repository in (None, r.name)]
        if repository is not None and not repos:
            raise RepositoryNotFound(f"repository {repository!r} is not indexed", tuple(r.name for r in known))
        services = []
        for s in self.store.list_services(repository):
            services.append(ServiceFacts(
                service=s,
                components=tuple(self.store.list_components(s.id)),
                apis=tuple(self.store.list_apis(s.id)),
                calls=tuple(self.store.list_calls(from_service_id=s.id)),
                entities=tuple(self.store.list_entities(s.id)),
                messages=tuple(self.store.list_messages(s.id)),
            ))
        return KnowledgeSnapshot(
            schema_version=EXPORT_SCHEMA_VERSION,
            generated_at=self.clock(),
            repositories=tuple(RepositorySnapshot(r, probe.of(r)) for r in repos),
            services=tuple(services),
            resources=tuple(self.store.list_resources(repository)),
            gaps=tuple(self.store.list_gaps(repository)),
        )
