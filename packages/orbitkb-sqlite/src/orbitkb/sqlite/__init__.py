"""orbitkb.sqlite: the KnowledgeStore adapter — SQLAlchemy Core over SQLite (WAL, FTS5, migrations).

``SqliteKnowledgeStore(path)`` opens (creating or upgrading) the database at ``path``;
``":memory:"`` gives a private in-memory database. It loads on first use (PEP 562), so the
listing reader (``orbitkb.sqlite.listing``) runs without importing SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from orbitkb.sqlite.store import SqliteKnowledgeStore

__all__ = ["SqliteKnowledgeStore"]


def __getattr__(name: str) -> Any:
    if name != "SqliteKnowledgeStore":
        raise AttributeError(f"module 'orbitkb.sqlite' has no attribute {name!r}")
    from orbitkb.sqlite.store import SqliteKnowledgeStore

    return SqliteKnowledgeStore
