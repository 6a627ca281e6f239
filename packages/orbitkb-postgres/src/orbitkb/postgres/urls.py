"""Which database names this store picks: the URL schemes of PostgreSQL, written once.

Read by the composition root's settings to tell a server from an SQLite file, so it imports
nothing but the standard library (no SQLAlchemy, no driver).
"""

from __future__ import annotations

#: ``--db`` / ``ORBITKB_DB`` values that name a PostgreSQL server; anything else is an SQLite file.
SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")


def is_postgres_url(value: str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL; a file path is never one."""
    return str(value).startswith(SCHEMES)
