"""Every store refuses a read-only agent's writes the same way (StoreReadOnly, nothing written)
while every read answers — the contract the use cases rely on to answer without recording."""

from __future__ import annotations

import pytest

from orbitkb.domain.errors import StoreError, StoreReadOnly
from orbitkb.domain.model import Repository
from orbitkb.domain.runs import (
    ArchitectureRun,
    ChangeSurfaceRun,
    Embedding,
    Feedback,
    IndexRun,
    ServiceIndexCost,
    Verification,
)

WRITES = [
    ("add_change_surface_run", lambda: (ChangeSurfaceRun(None, "t", "now"),)),
    ("add_feedback", lambda: (Feedback(1, "payments", "confirmed", "now"),)),
    ("add_verification", lambda: (Verification(None, 1, "shop", "abc", "now"),)),
    ("add_architecture_run", lambda: (ArchitectureRun(None, "now"),)),
    ("add_index_run", lambda: (IndexRun(None, "shop", "now"),)),
    ("add_index_costs", lambda: ([ServiceIndexCost(1, "shop", "s", "s", 1)],)),
    ("put_embeddings", lambda: ([Embedding("service", "s", "name", "h", "m", (1.0, 0.0))],)),
    ("put_llm_cache", lambda: ("k", "v")),
    ("upsert_repository", lambda: (Repository("other", "/x", "none"),)),
]


def test_reads_answer(read_only_store):
    assert "payments" in {s.name for s in read_only_store.list_services()}
    assert read_only_store.load_model().list_services()
    assert read_only_store.search(["refund"]) is not None
    assert [r.task for r in read_only_store.change_history().runs] == ["refund a card payment"]
    assert [c.service for c in read_only_store.list_index_costs()] == ["payments"]


@pytest.mark.parametrize(("method", "arguments"), WRITES, ids=[w[0] for w in WRITES])
def test_every_write_is_refused_with_store_read_only_and_changes_nothing(read_only_store, method, arguments):
    before = read_only_store.snapshot_fingerprint(), len(read_only_store.list_change_surface_runs())
    with pytest.raises(StoreReadOnly) as caught:
        getattr(read_only_store, method)(*arguments())
    assert isinstance(caught.value, StoreError) and "\n" not in str(caught.value)
    assert (read_only_store.snapshot_fingerprint(), len(read_only_store.list_change_surface_runs())) == before


def test_a_reader_role_meeting_an_older_schema_is_told_who_may_upgrade_it(postgres_url):
    from orbitkb.postgres import PostgresKnowledgeStore, migrations
    from orbitkb.postgres.engine import Database
    from tests.integration.read_only.conftest import select_only_url

    db = Database(postgres_url)
    migrations.upgrade(db, target=1)  # what an older orbitkb created
    db.dispose()
    with pytest.raises(StoreError) as caught:
        PostgresKnowledgeStore(select_only_url(postgres_url))
    assert f"may not upgrade to version {migrations.LATEST}" in str(caught.value)
    assert "indexers' role" in caught.value.hint
    with PostgresKnowledgeStore(postgres_url) as indexer:  # the owner upgrades it; the reader then reads
        assert indexer.schema_version() == migrations.LATEST
    with PostgresKnowledgeStore(select_only_url(postgres_url)) as reader:
        assert reader.list_index_costs() == []


def test_the_grants_the_team_setup_page_names_let_agents_record_their_history(postgres_url):
    """docs/team-setup.md's optional grants, run as written: runs, feedback (replaced on a second
    verdict) and verifications are then recorded by the reader role."""
    from pathlib import Path

    import sqlalchemy as sa

    from orbitkb.domain.runs import ChangeSurfaceRun, Feedback, Verification
    from orbitkb.postgres import PostgresKnowledgeStore
    from tests.integration.read_only.conftest import seed, select_only_url

    page = (Path(__file__).resolve().parents[3] / "docs" / "team-setup.md").read_text()
    grants = [line for line in page.splitlines()
              if line.startswith("GRANT ") and "orbitkb_reader" in line and ("INSERT" in line or "DELETE" in line
                                                                            or "SEQUENCES" in line)]
    assert len(grants) >= 3
    with PostgresKnowledgeStore(postgres_url) as owner:
        seed(owner)
    reader_url = select_only_url(postgres_url)
    role = sa.make_url(reader_url).username
    engine = sa.create_engine(sa.make_url(postgres_url).set(drivername="postgresql+psycopg"),
                              isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        for grant in grants:
            conn.exec_driver_sql(grant.replace("orbitkb_reader", str(role)))
    engine.dispose()
    with PostgresKnowledgeStore(reader_url) as reader:
        run = reader.add_change_surface_run(ChangeSurfaceRun(None, "t", "now"))
        reader.add_feedback(Feedback(run, "payments", "rejected", "t1"))
        reader.add_feedback(Feedback(run, "payments", "confirmed", "t2"))
        reader.add_verification(Verification(None, run, "shop", "abc", "t3"))
        assert [f.outcome for f in reader.list_feedback("payments")] == ["confirmed"]
        assert len(reader.list_verifications(run)) == 1
