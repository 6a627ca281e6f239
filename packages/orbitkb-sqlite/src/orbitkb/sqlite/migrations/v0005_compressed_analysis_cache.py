"""Migration 5: the analysis cache holds zlib-compressed values (a BLOB), not JSON text.

Frozen like every migration. The cache was most of a database (85 % on the 300-service benchmark
system) and compresses ~5x. Its rows are only a cache of what parsing a file yields, so they are
dropped rather than rewritten: the next index re-analyses each file once and stores it compressed.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection

VERSION = 5
DESCRIPTION = "analysis_cache values zlib-compressed (old rows dropped: re-analysed on the next index)"


def upgrade(conn: Connection) -> None:
    conn.execute(text("DROP TABLE IF EXISTS analysis_cache"))
    conn.execute(text("CREATE TABLE analysis_cache (key TEXT NOT NULL PRIMARY KEY, value BLOB NOT NULL)"))
