"""PostgreSQL migration 2 on the throwaway server: a version-1 database (runs with per-repository
totals only) gains the per-service index costs in place, every run kept."""

from __future__ import annotations

import sqlalchemy as sa

from orbitkb.domain.runs import IndexRun, ServiceIndexCost
from orbitkb.postgres import PostgresKnowledgeStore, migrations
from orbitkb.postgres.engine import Database
from orbitkb.sql import codec

OLD_RUN = IndexRun(1, "shop", "t0", "t1", "ok", backend="codex", llm_calls=4, input_tokens=300, cost_usd=0.02)


def test_a_version_1_database_gains_service_costs_keeping_its_runs(postgres_url):
    db = Database(postgres_url)
    assert migrations.upgrade(db, target=1) == 1  # what orbitkb with PostgreSQL schema 1 created
    with db.write() as conn:
        assert "service_index_costs" not in sa.inspect(conn).get_table_names()
        row = codec.to_row(OLD_RUN, ())
        conn.execute(sa.insert(sa.table("index_runs", *(sa.column(k) for k in row))), [row])
        conn.execute(sa.text("SELECT setval(pg_get_serial_sequence('index_runs', 'id'), 2, false)"))
    db.dispose()
    with PostgresKnowledgeStore(postgres_url) as store:
        assert store.schema_version() == migrations.LATEST >= 2
        assert store.list_index_runs() == [OLD_RUN] and store.list_index_costs() == []
        run = store.add_index_run(IndexRun(None, "shop", "t2", backend="claude"))
        store.add_index_costs([ServiceIndexCost(run, "shop", "svc:orders", "orders", 2, 10, 5, 0.01)])
        assert [(c.run_id, c.service) for c in store.list_index_costs(service_id="svc:orders")] == [(run, "orders")]
