"""ReadOnlyStore: a store seen by an agent that may only read — what a ``mode=ro`` SQLite file or a
PostgreSQL role with SELECT only gives. Every read is the wrapped store's; every write raises
StoreReadOnly, as those stores do, so use cases can be tested for answering without recording."""

from __future__ import annotations

from typing import Any

from orbitkb.domain.errors import StoreReadOnly
from orbitkb.domain.ports import FactsWriter, KnowledgeStore

#: The methods that write, by the role ports' names (the analysis cache's ``put_many`` is reached
#: through ``analysis_cache()`` and stays a cache: the fake leaves it writable, as a cache miss costs
#: nothing but time).
WRITES = frozenset(
    {n for n, v in vars(FactsWriter).items() if callable(v) and not n.startswith("_")}
    | {"add_index_run", "update_index_run", "add_index_costs", "add_change_surface_run", "add_feedback",
       "add_verification", "add_architecture_run", "put_embeddings", "delete_embeddings", "put_llm_cache"}
)


class ReadOnlyStore:
    """``ReadOnlyStore(store)``: ``store`` for reads; StoreReadOnly, nothing written, for writes."""

    def __init__(self, store: KnowledgeStore, where: str = "the in-memory store") -> None:
        self._store = store
        self._where = where

    def __getattr__(self, name: str) -> Any:
        if name in WRITES:
            return self._refuse
        return getattr(self._store, name)

    def _refuse(self, *_args: object, **_kwargs: object) -> Any:
        raise StoreReadOnly(f"database error on {self._where}: attempt to write a read-only store",
                            hint="this agent may only read")
