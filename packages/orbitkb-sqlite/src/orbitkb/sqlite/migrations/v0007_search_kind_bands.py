"""Migration 7: every search document moves to its kind's rowid band (``orbitkb.sqlite.search``),
so a query for one kind reads that kind's matches only. The FTS5 table keeps its layout and its
rows; only their rowids change (bm25 reads whole-table statistics, so answers are the same)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

VERSION = 7
DESCRIPTION = "search documents numbered by kind band"

#: Frozen here: the bands as this migration wrote them (later kinds append to the live table).
_BAND_BITS = 40
_BANDS = {"service": 1, "component": 2, "api": 3, "call": 4, "message": 5, "technology": 6, "source": 7,
          "history": 8, "entity": 9}


def upgrade(conn: Connection) -> None:
    band = "(CASE kind " + " ".join(f"WHEN '{kind}' THEN {n}" for kind, n in _BANDS.items()) + " ELSE 0 END)"
    # Old rowids are small (below one band), so band << bits | rowid never meets another row's;
    # a row already in its band stays where it is.
    conn.execute(sa.text(f"UPDATE search_docs SET rowid = ({band} << {_BAND_BITS}) | (rowid & {(1 << _BAND_BITS) - 1}) "
                         f"WHERE rowid >> {_BAND_BITS} != {band}"))
    conn.execute(sa.text("INSERT INTO search_docs(search_docs) VALUES ('optimize')"))
