"""Scale: a 300-service, 20,000-file snapshot is written in one quick transaction, and reading one
service's facts goes through an index."""

from __future__ import annotations

import time

import sqlalchemy as sa

from orbitkb.domain.model import Api, Component, Message, PersistenceEntity, ServiceCall
from orbitkb.sql import codec, tables
from orbitkb.sqlite import SqliteKnowledgeStore


def test_a_large_snapshot_is_replaced_quickly(tmp_path, make_snapshot):
    store = SqliteKnowledgeStore(str(tmp_path / "big.db"))
    big = make_snapshot("mono", 300, files_per_service=67)  # 20,100 files
    started = time.perf_counter()
    store.replace_repository_facts(**big)
    first = time.perf_counter() - started
    started = time.perf_counter()
    store.replace_repository_facts(**make_snapshot("mono", 300, files_per_service=67, tag="v2"))
    second = time.perf_counter() - started  # deletes the whole previous snapshot too
    print(f"replace 300 services / 20,100 files: {first:.2f}s, again: {second:.2f}s")
    # "well under a few seconds" on a quiet machine; generous here because CI cores are shared.
    assert first < 8 and second < 8
    assert len(store.list_indexed_files("mono")) == 20_100
    assert len(store.list_apis()) == 300
    store.close()


def test_reading_one_service_uses_an_index(tmp_path):
    store = SqliteKnowledgeStore(str(tmp_path / "plan.db"))
    queries = [
        codec.select_for(tables.apis, Api).where(tables.apis.c.service_id == "x"),
        codec.select_for(tables.components, Component).where(tables.components.c.service_id == "x"),
        codec.select_for(tables.calls, ServiceCall).where(tables.calls.c.from_service_id == "x"),
        codec.select_for(tables.calls, ServiceCall).where(tables.calls.c.to_service_id == "x"),
        codec.select_for(tables.calls, ServiceCall).where(tables.calls.c.target.in_(["a", "b"])),
        codec.select_for(tables.messages, Message).where(tables.messages.c.channel == "x"),
        codec.select_for(tables.entities, PersistenceEntity).where(tables.entities.c.service_id == "x"),
        sa.select(tables.services).where(tables.services.c.repository == "x"),
        sa.select(tables.embeddings).where(tables.embeddings.c.owner_id == "x"),
    ]
    engine = store._db.engine
    with engine.connect() as conn:
        for query in queries:
            sql = str(query.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True}))
            plan = " ".join(str(row[-1]) for row in conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
            assert "USING INDEX" in plan or "USING COVERING INDEX" in plan, (sql, plan)
    store.close()
