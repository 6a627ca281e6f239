"""orbitkb.sqlite: the KnowledgeStore adapter — SQLAlchemy Core over SQLite (WAL, FTS5, migrations).

``SqliteKnowledgeStore(path)`` opens (creating or upgrading) the database at ``path``;
``":memory:"`` gives a private in-memory database.
"""

from orbitkb.sqlite.store import SqliteKnowledgeStore

__all__ = ["SqliteKnowledgeStore"]
