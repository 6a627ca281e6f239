"""Listing the indexed services, one item each: the first question of the drill-down, kept in a
module of its own so that `orbitkb list` imports neither the describe answers nor the read model.

Ports and the ``SystemModel`` are named for the type checker only: with a model reader the model
answers (the same list for every request of a snapshot), else the store, one query per question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import frozen

from orbitkb.domain.errors import EmptyKnowledgeBase, RepositoryNotFound
from orbitkb.domain.model import Service
from orbitkb.domain.views import ServiceListItem

if TYPE_CHECKING:
    from orbitkb.domain.ports import FactsReader, KnowledgeStore, ModelReader


@frozen
class ListServices:
    """Every service of the knowledge base (or of ``repository``) with its API count. An empty
    knowledge base and an unknown repository are errors; a repository is named with the closest
    indexed ones."""

    store: KnowledgeStore
    models: ModelReader | None = None

    def __call__(self, repository: str | None = None) -> tuple[ServiceListItem, ...]:
        if self.models is None:
            return _items(self.store, repository)
        model = self.models.load_model()
        return model.derived(f"service-list:{repository}", lambda: _items(model, repository))


def _items(facts: FactsReader, repository: str | None) -> tuple[ServiceListItem, ...]:
    services = facts.list_services(repository)
    if not services:
        repos = [r.name for r in facts.list_repositories()]
        if not repos:
            raise EmptyKnowledgeBase("the knowledge base is empty")
        if repository is not None and repository not in repos:
            import difflib  # only for this error's suggestions

            raise RepositoryNotFound(f"repository {repository!r} is not indexed",
                                     tuple(difflib.get_close_matches(repository, repos, 5, 0.3)) or tuple(repos[:5]))
    return service_items(services, facts.count_apis())


def service_items(services: list[Service], counts: dict[str, int]) -> tuple[ServiceListItem, ...]:
    return tuple(ServiceListItem(s.name, s.short_desc, s.stack, counts.get(s.id, 0), s.repository, s.framework)
                 for s in services)
