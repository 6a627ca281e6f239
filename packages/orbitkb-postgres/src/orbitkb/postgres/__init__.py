"""orbitkb.postgres: the KnowledgeStore adapter over PostgreSQL — a team's shared knowledge base.

``PostgresKnowledgeStore(url)`` opens (creating or upgrading the schema of) the database at a
``postgresql://`` URL; credentials come from the URL, ``PG*`` variables or ``.pgpass``. The store
loads on first use, so asking ``is_postgres_url`` imports no SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orbitkb.postgres.urls import is_postgres_url

if TYPE_CHECKING:
    from orbitkb.postgres.store import PostgresKnowledgeStore

__all__ = ["PostgresKnowledgeStore", "is_postgres_url"]


def __getattr__(name: str) -> Any:
    if name == "PostgresKnowledgeStore":
        from orbitkb.postgres.store import PostgresKnowledgeStore

        return PostgresKnowledgeStore
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
