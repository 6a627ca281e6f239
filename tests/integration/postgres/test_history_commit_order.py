"""Two agents recording runs at once on PostgreSQL: the run given the lower id may commit after
the higher one. A server that keeps the decoded history must still read it next (run ids are
asked for on every read, never inferred from the highest id seen)."""

from __future__ import annotations

import sqlalchemy as sa

from orbitkb.domain.runs import ChangeSurfaceRun
from orbitkb.postgres import PostgresKnowledgeStore


def test_a_run_committed_after_a_newer_one_is_in_the_next_history_read(postgres_url):
    with PostgresKnowledgeStore(postgres_url) as store:
        store.add_change_surface_run(ChangeSurfaceRun(None, "settle the invoices", "2024-06-01T08:00:00Z"))
        engine = sa.create_engine(postgres_url.replace("postgresql://", "postgresql+psycopg://"))
        slow = engine.connect()
        slow.begin()
        held = slow.execute(sa.text(
            "INSERT INTO change_surface_runs (task, created_at, backend, hint_services, findings) "
            "VALUES ('late agent task', '2024-06-01T09:00:00Z', 'deterministic', '[]', '[]') RETURNING id")).scalar()
        newer = store.add_change_surface_run(ChangeSurfaceRun(None, "quick agent task", "2024-06-01T09:00:01Z"))
        assert newer > held
        assert [r.task for r in store.change_history().runs] == ["quick agent task", "settle the invoices"]
        slow.commit()
        slow.close()
        engine.dispose()
        assert [r.task for r in store.change_history().runs] == ["quick agent task", "late agent task",
                                                                 "settle the invoices"]
