"""Helpers of the role-parametrised store contracts: the stores under contract, a role's
methods, and a store whose facts are read back through the SystemModel it loads."""

from __future__ import annotations

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.ports import FactsReader, KnowledgeStore
from orbitkb.postgres import PostgresKnowledgeStore
from orbitkb.sqlite import SqliteKnowledgeStore

STORES = ("memory", "sqlite", "postgres")
#: The embeddings' contracts also run on PostgreSQL with pgvector (nearest vectors found by the server).
VECTOR_STORES = (*STORES, "pgvector")


def open_store(kind: str, tmp_path: object, request: object = None) -> KnowledgeStore:
    """A new, empty store of ``kind``; "postgres" needs the test's ``request`` (a fresh database
    on the session's throwaway server, see tests/conftest.py), "pgvector" one on the server with
    the extension."""
    if kind == "memory":
        return InMemoryKnowledgeStore()
    if kind in ("postgres", "pgvector"):
        url = request.getfixturevalue(f"{kind}_url")  # type: ignore[attr-defined]
        return PostgresKnowledgeStore(url)
    return SqliteKnowledgeStore(f"{tmp_path}/kb/orbitkb.db")


def role_methods(role: type) -> tuple[str, ...]:
    """The methods a role port declares (its own, not those of typing.Protocol)."""
    return tuple(sorted(n for n, v in vars(role).items() if callable(v) and not n.startswith("_")))


class ModelReads:
    """A store whose FactsReader questions are answered by a freshly loaded SystemModel: the same
    contract tests then hold the model to the store's answers and orders; writes go to the store."""

    def __init__(self, store: KnowledgeStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> object:
        if name in role_methods(FactsReader):
            return getattr(self._store.load_model(), name)
        return getattr(self._store, name)
