"""Migration 3: technology facts per service (languages, frameworks, declared dependencies, build
tools, base images). Frozen like every migration; existing snapshots simply have none until the
repository is indexed again."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

VERSION = 3
DESCRIPTION = "technologies table"


def upgrade(conn: Connection) -> None:
    md = sa.MetaData()
    sa.Table("services", md, sa.Column("id", sa.Text, primary_key=True))
    sa.Table(
        "technologies",
        md,
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("service_id", sa.Text, sa.ForeignKey("services.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("version", sa.Text),
        sa.Column("evidence", sa.Text, nullable=False),
        sa.Index("ix_technologies_service", "service_id"),
        sa.Index("ix_technologies_name", "name"),
    )
    md.tables["technologies"].create(conn)
