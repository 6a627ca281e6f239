"""Migration 6 on a real file: a version-5 database (runs with per-repository totals only) gains
the per-service index costs in place, every run kept, and records new costs afterwards."""

from __future__ import annotations

import sqlalchemy as sa

from orbitkb.domain.runs import IndexRun, ServiceIndexCost
from orbitkb.sql import codec
from orbitkb.sqlite import SqliteKnowledgeStore, migrations
from orbitkb.sqlite.engine import Database

OLD_RUN = IndexRun(1, "shop", "t0", "t1", "ok", backend="claude", llm_calls=12, input_tokens=9000,
                   output_tokens=800, cost_usd=0.25)  # fmt: skip


def write_version_5(path: str) -> None:
    db = Database(path)
    assert migrations.upgrade(db, target=5) == 5
    with db.write() as conn:
        row = codec.to_row(OLD_RUN, ())
        conn.execute(sa.insert(sa.table("index_runs", *(sa.column(k) for k in row))), [row])
    db.dispose()


def table_names(path: str) -> set[str]:
    engine = sa.create_engine(f"sqlite:///{path}")
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_a_version_5_database_gains_service_costs_keeping_its_runs(tmp_path):
    path = str(tmp_path / "v5.db")
    write_version_5(path)
    assert "service_index_costs" not in table_names(path)
    with SqliteKnowledgeStore(path) as store:
        assert store.schema_version() == migrations.LATEST
        assert store.list_index_runs() == [OLD_RUN]  # the old per-repository totals are kept
        assert store.list_index_costs() == []  # a run made before migration 6 has no per-service split
        run = store.add_index_run(IndexRun(None, "shop", "t2", backend="claude"))
        store.add_index_costs([ServiceIndexCost(run, "shop", "svc:orders", "orders", 2, 10, 5, 0.01)])
        assert [c.service for c in store.list_index_costs("shop")] == ["orders"]
    assert "service_index_costs" in table_names(path)


def test_a_version_5_database_opened_read_only_is_upgraded_first_then_read(tmp_path):
    path = str(tmp_path / "v5.db")
    write_version_5(path)
    with SqliteKnowledgeStore(path, read_only=True) as store:  # `orbitkb status` opens read-only
        assert store.schema_version() == migrations.LATEST
        assert store.list_index_costs() == [] and store.list_index_runs() == [OLD_RUN]
