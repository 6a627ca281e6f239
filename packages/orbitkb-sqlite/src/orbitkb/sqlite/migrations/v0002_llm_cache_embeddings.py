"""Migration 2: the LLM answer cache, stored embeddings and the services' README text.

Frozen like every migration. The new column is added with ``ALTER TABLE ... ADD COLUMN`` whose
column clause SQLAlchemy compiles for the connected dialect; existing rows get NULL.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.schema import CreateColumn

VERSION = 2
DESCRIPTION = "llm_cache and embeddings tables, services.readme"


def _schema() -> sa.MetaData:
    md = sa.MetaData()
    sa.Table(
        "llm_cache",
        md,
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    sa.Table(
        "embeddings",
        md,
        sa.Column("model_id", sa.Text, primary_key=True),
        sa.Column("owner_kind", sa.Text, primary_key=True),
        sa.Column("owner_id", sa.Text, primary_key=True),
        sa.Column("field", sa.Text, primary_key=True),
        sa.Column("content_hash", sa.Text, nullable=False),
        sa.Column("dim", sa.Integer, nullable=False),
        sa.Column("vector", sa.LargeBinary, nullable=False),
        sa.Index("ix_embeddings_owner", "owner_id"),
    )
    return md


def add_column(conn: Connection, table: str, column: sa.Column[object]) -> None:
    """Portable ADD COLUMN: the column clause is compiled by the connection's dialect."""
    sa.Table(table, sa.MetaData(), column)  # a column must belong to a table to compile
    clause = CreateColumn(column).compile(dialect=conn.dialect)
    preparer = conn.dialect.identifier_preparer
    conn.execute(sa.text(f"ALTER TABLE {preparer.quote(table)} ADD COLUMN {clause}"))


def upgrade(conn: Connection) -> None:
    _schema().create_all(conn)
    add_column(conn, "services", sa.Column("readme", sa.Text))
