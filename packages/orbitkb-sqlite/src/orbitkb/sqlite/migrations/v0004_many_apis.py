"""Migration 4: a call or a message belongs to every API whose handler reaches it
(``calls.from_api_ids``, ``messages.api_ids``, JSON lists). Frozen like every migration; existing
rows get the one API they had (or none)."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection

VERSION = 4
DESCRIPTION = "calls.from_api_ids, messages.api_ids"


def upgrade(conn: Connection) -> None:
    for table, many, single in (("calls", "from_api_ids", "from_api_id"), ("messages", "api_ids", "api_id")):
        conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {many} TEXT NOT NULL DEFAULT '[]'"))
        conn.execute(
            text(f"UPDATE {table} SET {many} = json_array({single}) WHERE {single} IS NOT NULL")
        )
