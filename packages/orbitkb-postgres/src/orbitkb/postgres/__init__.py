"""orbitkb.postgres: the KnowledgeStore adapter over PostgreSQL — a team's shared knowledge base.

``PostgresKnowledgeStore(url)`` opens (creating or upgrading the schema of) the database at a
``postgresql://`` URL; credentials come from the URL, ``PG*`` variables or ``.pgpass``.
"""

from orbitkb.postgres.store import PostgresKnowledgeStore, is_postgres_url

__all__ = ["PostgresKnowledgeStore", "is_postgres_url"]
