"""A knowledge base as a read-only agent sees it, on every store (issue 15): the in-memory fake
behind ``ReadOnlyStore``, an SQLite file opened ``mode=ro``, and PostgreSQL through a role that
has SELECT only (opened the way ``orbitkb serve`` opens it: nothing on our side forbids writing,
the server refuses)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from orbitkb.domain.fakes import InMemoryKnowledgeStore, ReadOnlyStore
from orbitkb.domain.model import Repository
from orbitkb.domain.ports import KnowledgeStore
from orbitkb.domain.runs import ChangeSurfaceRun, IndexRun, ServiceIndexCost, SurfaceFinding
from orbitkb.domain.search_docs import documents_for
from orbitkb.postgres import PostgresKnowledgeStore
from orbitkb.sqlite import SqliteKnowledgeStore
from tests.unit.change.seed import REPO, facts, sid

STORES = ("memory", "sqlite", "postgres")


def seed(store: KnowledgeStore) -> None:
    """The hand-built shop, one past change-surface run (id 1) and one index run with a service cost."""
    f = facts()
    store.replace_repository_facts(Repository(REPO, "/nowhere", "none", None, "2026-01-01T00:00:00+00:00"), f, [],
                                   [], [], documents_for(f))
    store.add_change_surface_run(ChangeSurfaceRun(None, "refund a card payment", "t0", findings=(
        SurfaceFinding("payments", "primary", "owns refunds", 0.8),)))
    run = store.add_index_run(IndexRun(None, REPO, "t0", backend="claude", llm_calls=2, cost_usd=0.5))
    store.add_index_costs([ServiceIndexCost(run, REPO, sid("payments"), "payments", 2, 100, 10, 0.5)])


def select_only_url(owner_url: str) -> str:
    """A new role that may read every table of ``owner_url``'s database and write none; its URL."""
    url = sa.make_url(owner_url)
    role = "reader_" + uuid.uuid4().hex[:10]
    engine = sa.create_engine(url.set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(f"CREATE ROLE {role} LOGIN")
            conn.exec_driver_sql(f'GRANT CONNECT ON DATABASE "{url.database}" TO {role}')
            conn.exec_driver_sql(f"GRANT USAGE ON SCHEMA public TO {role}")
            conn.exec_driver_sql(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {role}")
    finally:
        engine.dispose()
    return url.set(username=role).render_as_string(hide_password=False)


@pytest.fixture(params=STORES)
def read_only_store(request: pytest.FixtureRequest, tmp_path) -> Iterator[KnowledgeStore]:
    store: KnowledgeStore
    if request.param == "memory":
        writable = InMemoryKnowledgeStore()
        seed(writable)
        store = ReadOnlyStore(writable)  # type: ignore[assignment]
    elif request.param == "sqlite":
        path = str(tmp_path / "kb.db")
        with SqliteKnowledgeStore(path) as writable:
            seed(writable)
        store = SqliteKnowledgeStore(path, read_only=True)
    else:
        owner = request.getfixturevalue("postgres_url")
        with PostgresKnowledgeStore(owner) as writable:
            seed(writable)
        store = PostgresKnowledgeStore(select_only_url(owner))
    yield store
    store.close()
