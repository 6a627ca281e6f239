"""RefreshRepositories: re-index, incrementally, repositories that are already indexed (the CLI's
``orbitkb update`` and the MCP ``refresh`` tool).

Business rules:
- No name: every indexed repository. A name is a repository, or a service standing for its
  repository (``orders``, ``shop/orders`` or an alias); each repository is refreshed once, in
  the order first named. Any unknown name refuses the whole request (RepositoryNotFound with the
  closest names) before anything is re-indexed.
- A refresh never brings back a removed repository: each one is re-indexed only while still
  indexed (``if_indexed``). One removed meanwhile is reported ``removed`` when it was not named,
  and is an error when it was.
- ``replace`` lets a folder that became empty empty its repository (refused otherwise).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from attrs import frozen

from orbitkb.domain.catalog import ServiceCatalog
from orbitkb.domain.errors import RepositoryNotFound
from orbitkb.domain.model import Repository
from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.usecases.indexing import IndexRepository, IndexRequest, IndexResult, Progress


@frozen
class Refreshed:
    """One repository of a refresh: its index result, or ``removed`` (gone before its turn)."""

    repository: str
    result: IndexResult | None = None

    @property
    def removed(self) -> bool:
        return self.result is None


@frozen
class RefreshRepositories:
    store: KnowledgeStore
    index: IndexRepository

    def select(self, names: Sequence[str] = ()) -> tuple[Repository, ...]:
        """The repositories ``names`` stand for (all when empty); RepositoryNotFound for any unknown."""
        repos = self.store.list_repositories()
        if not names:
            return tuple(repos)
        known = {r.name: r for r in repos}
        services = self.store.list_services()
        chosen: dict[str, Repository] = {}
        missing = []
        for n in names:
            owners = [n] if n in known else sorted({s.repository for s in services
                                                    if n in (s.name, f"{s.repository}/{s.name}", *s.aliases)})
            for owner in owners:
                chosen.setdefault(owner, known[owner])
            if not owners:
                missing.append(n)
        if missing:
            suggest = ServiceCatalog(services).suggest
            close = {c for n in missing for c in (*difflib.get_close_matches(n, known, 3, 0.4), *suggest(n, 3))}
            raise RepositoryNotFound(f"not an indexed repository or service: {', '.join(missing)}",
                                     tuple(sorted(close)) or tuple(sorted(known)))
        return tuple(chosen.values())

    def __call__(self, names: Sequence[str] = (), replace: bool = False,
                 progress: Progress | None = None) -> tuple[Refreshed, ...]:
        out = []
        for repo in self.select(names):
            try:
                result = self.index(IndexRequest(path=repo.root_path, repository_name=repo.name, if_indexed=True,
                                                 replace=replace), progress)
            except RepositoryNotFound:
                if names:
                    raise
                out.append(Refreshed(repo.name))
                continue
            out.append(Refreshed(repo.name, result))
        return tuple(out)
