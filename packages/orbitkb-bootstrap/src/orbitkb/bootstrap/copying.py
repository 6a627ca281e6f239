"""`orbitkb copy SRC DST`, composed: open both stores from their values (a file or a
``postgresql://`` URL, as ``--db`` reads them) and copy one into the other, verified by counts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from orbitkb.bootstrap.factories import make_store
from orbitkb.bootstrap.settings import Settings
from orbitkb.domain.errors import InvalidInput, PathNotFound


def copy_knowledge(source: str, target: str) -> Any:
    """Copy the knowledge base at ``source`` into the empty one at ``target``; returns the report
    (``counts`` per table, equal on both sides). Labels never carry credentials."""
    src, dst = Settings(db_path=source, read_only=True), Settings(db_path=target)
    if src.db_label == dst.db_label and src.db_file == dst.db_file:
        raise InvalidInput("the source and the destination are the same database")
    if not src.db_is_url and not Path(src.db_file).is_file():
        raise PathNotFound(f"no database at {src.db_label}", hint="give an orbitkb SQLite file or a postgresql:// URL")
    from orbitkb.sql.copy import copy_store

    source_store = make_store(src)
    try:
        target_store = make_store(dst)
        try:
            return copy_store(source_store, target_store, src.db_label, dst.db_label)  # type: ignore[arg-type]
        finally:
            target_store.close()
    finally:
        source_store.close()
