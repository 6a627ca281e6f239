"""A snapshot is written in bounded batches inside its one transaction (issue 14: peak index
memory): rows and search documents are built batch by batch, documents may come from a generator,
and what is stored is the same as one write of everything."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest

from orbitkb.sql import codec
from orbitkb.sqlite import SqliteKnowledgeStore


def rows(path: str) -> dict[str, list[tuple[Any, ...]]]:
    with sqlite3.connect(path) as conn:
        return {table: conn.execute(f"SELECT {'rowid, ' if table == 'search_docs' else ''}* FROM {table} "
                                    f"ORDER BY {'rowid' if table == 'search_docs' else '1'}").fetchall()
                for table in ("services", "apis", "calls", "indexed_files", "search_docs")}


def write(path: str, snapshot: dict[str, Any], lazily: bool) -> None:
    args = dict(snapshot)
    if lazily:
        docs = list(args["documents"])
        args["documents"] = (d for d in docs)  # a generator: read once, as it is written
    with SqliteKnowledgeStore(path) as store:
        store.replace_repository_facts(**args)


def test_batches_of_a_few_rows_store_what_one_write_stores(tmp_path, make_snapshot, monkeypatch) -> None:
    whole = str(tmp_path / "whole.db")
    write(whole, make_snapshot("shop", 7, files_per_service=3), lazily=False)
    monkeypatch.setattr(codec, "WRITE_BATCH", 2)
    batched = str(tmp_path / "batched.db")
    write(batched, make_snapshot("shop", 7, files_per_service=3), lazily=True)
    assert rows(batched) == rows(whole)
    assert len(rows(batched)["search_docs"]) == 7 and len(rows(batched)["indexed_files"]) == 21


def test_documents_from_a_generator_are_searchable_and_replaced_whole(tmp_path, make_snapshot, monkeypatch) -> None:
    monkeypatch.setattr(codec, "WRITE_BATCH", 3)
    path = str(tmp_path / "kb.db")
    write(path, make_snapshot("shop", 5), lazily=True)
    write(path, make_snapshot("shop", 4, tag="v2"), lazily=True)
    with SqliteKnowledgeStore(path) as store:
        assert {h.name for h in store.search(["svc"])} == {f"svc-{i:03d}" for i in range(4)}


def test_a_generator_failing_midway_leaves_the_previous_snapshot(tmp_path, make_snapshot, monkeypatch) -> None:
    monkeypatch.setattr(codec, "WRITE_BATCH", 2)
    path = str(tmp_path / "kb.db")
    write(path, make_snapshot("shop", 5), lazily=False)
    args = make_snapshot("shop", 6, tag="v2")
    docs = list(args["documents"])

    def failing() -> Iterator[Any]:
        yield from docs[:3]
        raise RuntimeError("the documents could not be built")

    args["documents"] = failing()
    with SqliteKnowledgeStore(path) as store, pytest.raises(RuntimeError):
        store.replace_repository_facts(**args)
    with SqliteKnowledgeStore(path) as store:
        assert store.get_repository("shop").indexed_commit == "v1" and len(store.list_services("shop")) == 5


def test_batches_come_in_order_and_read_a_generator_only_as_far_as_needed() -> None:
    taken: list[int] = []

    def numbers() -> Iterator[int]:
        for n in range(7):
            taken.append(n)
            yield n

    batches = codec.batches(numbers(), 3)
    assert next(batches) == [0, 1, 2] and taken == [0, 1, 2]
    assert list(batches) == [[3, 4, 5], [6]]
    assert list(codec.batches([], 3)) == []
    with pytest.raises(ValueError, match="at least one"):
        list(codec.batches([1], 0))
