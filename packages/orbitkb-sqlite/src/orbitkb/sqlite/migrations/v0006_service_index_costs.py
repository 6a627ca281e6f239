"""Migration 6: what the LLM spent describing each service in each index run (``status SERVICE``
scopes the index cost to one service). Frozen like every migration; runs made before it keep
their per-repository totals only."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

VERSION = 6
DESCRIPTION = "service_index_costs table"


def upgrade(conn: Connection) -> None:
    md = sa.MetaData()
    sa.Table("index_runs", md, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table(
        "service_index_costs",
        md,
        sa.Column("run_id", sa.Integer, sa.ForeignKey("index_runs.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("service_id", sa.Text, primary_key=True),
        sa.Column("repository", sa.Text, nullable=False),
        sa.Column("service", sa.Text, nullable=False),
        sa.Column("llm_calls", sa.Integer, nullable=False),
        sa.Column("input_tokens", sa.Integer),
        sa.Column("output_tokens", sa.Integer),
        sa.Column("cost_usd", sa.Float),
        sa.Index("ix_service_index_costs_service", "service_id"),
        sa.Index("ix_service_index_costs_repository", "repository"),
    )
    md.tables["service_index_costs"].create(conn)
