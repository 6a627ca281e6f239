"""The PostgreSQL store beyond the shared contract: selection by URL, credentials kept out of
messages, versioned migrations, per-repository advisory locks and consistent reads."""

from __future__ import annotations

import threading
import time

import pytest
import sqlalchemy as sa

from orbitkb.bootstrap.factories import make_store
from orbitkb.bootstrap.settings import Settings
from orbitkb.domain.errors import SchemaTooNew, StoreError
from orbitkb.postgres import PostgresKnowledgeStore, is_postgres_url, migrations
from orbitkb.postgres.store import LOCK_NAMESPACE
from orbitkb.sqlite import SqliteKnowledgeStore
from tests.contract.conftest import replace, service_facts


def _sa(url: str) -> sa.Engine:
    return sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"), isolation_level="AUTOCOMMIT")


# -- selection by URL


@pytest.mark.parametrize("value", ["postgresql://u@h/db", "postgres://h/db", "postgresql+psycopg://h/db"])
def test_a_postgresql_url_is_a_url(value):
    assert is_postgres_url(value) and Settings(db_path=value).db_is_url
    assert Settings(db_path=value).db_file == value  # no ~ expansion, no path resolution


@pytest.mark.parametrize("value", ["kb.db", "~/.orbitkb/orbitkb.db", "/srv/postgresql/kb.db", ":memory:",
                                   "postgresql.db"])
def test_a_path_still_means_sqlite(value, tmp_path):
    assert not is_postgres_url(value) and not Settings(db_path=value).db_is_url


def test_the_label_never_holds_user_or_password():
    label = Settings(db_path="postgresql://indexer:s3cret@db.internal:6543/kb?sslmode=require").db_label
    assert label == "postgresql://db.internal:6543/kb"
    assert "s3cret" not in label and "indexer" not in label


def test_the_composition_root_opens_postgres_for_a_url_and_sqlite_for_a_path(postgres_url, tmp_path):
    pg = make_store(Settings(db_path=postgres_url))
    lite = make_store(Settings(db_path=str(tmp_path / "kb.db")))
    try:
        assert isinstance(pg, PostgresKnowledgeStore) and isinstance(lite, SqliteKnowledgeStore)
    finally:
        pg.close()
        lite.close()


def test_an_unreachable_server_names_host_and_database_never_the_password():
    with pytest.raises(StoreError) as caught:
        PostgresKnowledgeStore("postgresql://indexer:TopSecret99@127.0.0.1:1/teamkb")
    message = f"{caught.value} {caught.value.hint}"
    assert "teamkb on 127.0.0.1:1" in message
    assert "TopSecret99" not in message and "indexer" not in message


def test_a_database_that_does_not_exist_is_a_clear_error(postgres_cluster):
    with pytest.raises(StoreError, match="nowhere"):
        PostgresKnowledgeStore(postgres_cluster.url("nowhere"))


# -- migrations


def test_a_new_database_gets_the_latest_schema_and_reopening_changes_nothing(postgres_url):
    with PostgresKnowledgeStore(postgres_url) as first:
        assert first.schema_version() == migrations.LATEST
        replace(first, "shop", [service_facts("shop", "orders")])
    with PostgresKnowledgeStore(postgres_url) as again:
        assert again.schema_version() == migrations.LATEST
        assert [s.name for s in again.list_services()] == ["orders"]


def test_a_newer_schema_is_refused_naming_both_versions(postgres_url):
    PostgresKnowledgeStore(postgres_url).close()
    engine = _sa(postgres_url)
    with engine.connect() as conn:
        conn.execute(sa.text("UPDATE schema_meta SET value = '99' WHERE key = 'version'"))
    engine.dispose()
    with pytest.raises(SchemaTooNew) as caught:
        PostgresKnowledgeStore(postgres_url)
    assert "99" in str(caught.value) and f"version {migrations.LATEST}" in str(caught.value)


def test_an_older_schema_is_upgraded_in_place_keeping_its_rows(postgres_url, monkeypatch):
    with PostgresKnowledgeStore(postgres_url) as store:
        replace(store, "shop", [service_facts("shop", "orders")])
    # a next version adds a column: the store opening the old database applies it in place
    step = migrations.Migration(migrations.LATEST + 1, "a test column",
                                lambda conn: conn.execute(sa.text("ALTER TABLE services ADD COLUMN extra TEXT")))
    monkeypatch.setattr(migrations, "MIGRATOR", migrations.Migrator((*migrations.MIGRATIONS, step),
                                                                    lock=migrations.MIGRATOR.lock))
    monkeypatch.setattr(migrations, "LATEST", step.version)
    with PostgresKnowledgeStore(postgres_url) as store:
        assert store.schema_version() == step.version
        assert [s.name for s in store.list_services()] == ["orders"]


def test_a_read_only_open_never_creates_the_schema(postgres_url):
    with pytest.raises(StoreError, match="read-only"):
        PostgresKnowledgeStore(postgres_url, read_only=True)
    engine = _sa(postgres_url)
    with engine.connect() as conn:
        assert sa.inspect(conn).get_table_names() == []
    engine.dispose()


def test_two_stores_opening_a_new_database_at_once_migrate_it_once(postgres_url):
    errors: list[BaseException] = []

    def open_one() -> None:
        try:
            PostgresKnowledgeStore(postgres_url).close()
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# -- many writers, many readers


def _hold_lock(url: str, repository: str, held: threading.Event, release: threading.Event) -> None:
    engine = _sa(url)
    with engine.connect() as conn:
        conn.execute(sa.text("SELECT pg_advisory_lock(:ns, hashtext(:name))"), {"ns": LOCK_NAMESPACE, "name": repository})
        held.set()
        release.wait(10)
        conn.execute(sa.text("SELECT pg_advisory_unlock(:ns, hashtext(:name))"), {"ns": LOCK_NAMESPACE, "name": repository})
    engine.dispose()


def test_an_indexer_of_another_repository_is_not_held_but_one_of_the_same_fails_clearly(postgres_url):
    PostgresKnowledgeStore(postgres_url).close()
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_lock, args=(postgres_url, "shop", held, release))
    holder.start()
    try:
        assert held.wait(10)
        with PostgresKnowledgeStore(postgres_url, lock_timeout_s=0.3) as store:
            replace(store, "billing", [service_facts("billing", "ledger")])  # another repository: no wait
            with pytest.raises(StoreError) as caught:
                replace(store, "shop", [service_facts("shop", "orders")])
            assert "lock" in f"{caught.value} {caught.value.hint}"
            assert [s.repository for s in store.list_services()] == ["billing"]
    finally:
        release.set()
        holder.join()


def test_an_indexer_of_the_same_repository_waits_for_the_first(postgres_url):
    PostgresKnowledgeStore(postgres_url).close()
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=_hold_lock, args=(postgres_url, "shop", held, release))
    holder.start()
    assert held.wait(10)
    threading.Timer(0.5, release.set).start()
    started = time.monotonic()
    with PostgresKnowledgeStore(postgres_url) as store:
        replace(store, "shop", [service_facts("shop", "orders")])
        assert time.monotonic() - started >= 0.4
        assert [s.name for s in store.list_services()] == ["orders"]
    holder.join()


def test_a_reader_sees_one_snapshot_while_another_process_replaces_it(postgres_url):
    with PostgresKnowledgeStore(postgres_url) as writer, PostgresKnowledgeStore(postgres_url) as reader:
        replace(writer, "shop", [service_facts("shop", "orders")])
        before = reader.snapshot_fingerprint()
        with reader._db.read() as conn:  # one read unit, as load_model uses
            first = conn.execute(sa.text("SELECT count(*) FROM services")).scalar()
            replace(writer, "shop", [service_facts("shop", n) for n in ("orders", "catalog", "ledger")])
            again = conn.execute(sa.text("SELECT count(*) FROM services")).scalar()
        assert first == again == 1
        assert reader.snapshot_fingerprint() != before
        assert reader.load_model().fingerprint == reader.snapshot_fingerprint()
        assert len(reader.list_services()) == 3


def test_a_failed_index_leaves_the_previous_snapshot_whole(postgres_url, monkeypatch):
    from orbitkb.sql import calls

    with PostgresKnowledgeStore(postgres_url) as store:
        replace(store, "shop", [service_facts("shop", "orders")])
        before = store.snapshot_fingerprint()

        def boom(*_a: object, **_k: object) -> None:
            raise RuntimeError("killed mid-transaction")

        monkeypatch.setattr(calls, "insert_many", boom)
        with pytest.raises(RuntimeError):
            replace(store, "shop", [service_facts("shop", n) for n in ("orders", "catalog")])
        monkeypatch.undo()
        assert [s.name for s in store.list_services()] == ["orders"] and store.snapshot_fingerprint() == before
        replace(store, "shop", [service_facts("shop", n) for n in ("orders", "catalog")])
        assert [s.name for s in store.list_services()] == ["catalog", "orders"]


def test_text_with_nul_and_lone_surrogates_is_stored_not_refused(postgres_url):
    import attrs

    facts = service_facts("shop", "orders")
    odd = attrs.evolve(facts, service=attrs.evolve(facts.service, readme="a\x00b \udcff c"))
    with PostgresKnowledgeStore(postgres_url) as store:
        replace(store, "shop", [odd])
        assert store.list_services()[0].readme == "a\ufffdb \ufffd c"


# -- search ranks as SQLite's bm25 does


def test_both_stores_rank_the_same_documents_alike(postgres_url, tmp_path):
    from orbitkb.domain.ports import SearchDocument

    docs = [
        SearchDocument("service", "s1", "s1", "refunds", "refunds", "refunds", "payments money", "Refunds paid back."),
        SearchDocument("api", "a1", "s1", "refunds", "POST /refund", "refund create", "refund", "Creates a refund."),
        SearchDocument("entity", "e1", "s2", "ledger", "ledger_entry", "ledger entry", "refund amount",
                       "Each refund refund refund is booked here with its amount."),
        SearchDocument("component", "c1", "s2", "ledger", "Booker", "booker", "", "Books payments; no refunds."),
        SearchDocument("call", "k1", "s3", "orders", "orders -> refunds", "orders refunds", "http", "Asks for a refund."),
    ]
    lite = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    pg = PostgresKnowledgeStore(postgres_url)
    try:
        for store in (lite, pg):
            replace(store, "shop", [service_facts("shop", "orders")], documents=docs)
        for terms in (["refund"], ["ledger entry"], ["book"], ["refund", "amount"], ["orders refunds"]):
            a, b = lite.search(terms, limit=10), pg.search(terms, limit=10)
            assert [h.ref_id for h in b] == [h.ref_id for h in a], terms
            assert [round(h.score, 6) for h in b] == [round(h.score, 6) for h in a], terms
            assert [h.field for h in b] == [h.field for h in a], terms
    finally:
        lite.close()
        pg.close()


def test_query_syntax_in_terms_is_searched_as_words(postgres_url):
    with PostgresKnowledgeStore(postgres_url) as store:
        replace(store, "shop", [service_facts("shop", "orders")])
        for hostile in ("' OR '1'='1", "a & b | !c", "x:*", "<->", "(", "\\", "refund's"):
            store.search([hostile])  # never a syntax error
        assert store.search(["!!!", "&&"]) == []


# -- long-lived readers


def test_a_cached_model_reloads_when_another_process_indexes(postgres_url):
    from orbitkb.domain.model_cache import CachedModelReader

    with PostgresKnowledgeStore(postgres_url) as server_store, PostgresKnowledgeStore(postgres_url) as indexer:
        models = CachedModelReader(server_store)
        assert models.load_model().is_empty
        replace(indexer, "shop", [service_facts("shop", "orders")])
        assert [s.name for s in models.load_model().services] == ["orders"]
        loads = models.loads
        models.load_model()
        assert models.loads == loads  # nothing moved: no reload


def test_a_reader_reconnects_after_the_server_restarts(postgres_cluster, postgres_url):
    with PostgresKnowledgeStore(postgres_url) as store:
        replace(store, "shop", [service_facts("shop", "orders")])
        assert store.snapshot_fingerprint()
        postgres_cluster.restart()
        assert [s.name for s in store.list_services()] == ["orders"]


def test_an_indexer_killed_mid_transaction_leaves_the_snapshot_and_frees_the_lock(postgres_url):
    import os
    import signal
    import subprocess
    import sys

    with PostgresKnowledgeStore(postgres_url) as store:
        replace(store, "shop", [service_facts("shop", "orders")])
        before = store.snapshot_fingerprint()
    code = (
        "import time, sys\n"
        "from orbitkb.sql import calls\n"
        "from orbitkb.postgres import PostgresKnowledgeStore\n"
        "from tests.contract.conftest import replace, service_facts\n"
        "calls.insert_many = lambda *a, **k: (print('inside', flush=True), time.sleep(120))\n"
        f"replace(PostgresKnowledgeStore({postgres_url!r}), 'shop', "
        "[service_facts('shop', n) for n in ('orders', 'catalog', 'ledger')])\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             cwd=str(__import__("pathlib").Path(__file__).resolve().parents[3]))
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "inside"
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    with PostgresKnowledgeStore(postgres_url, lock_timeout_s=10) as store:
        assert [s.name for s in store.list_services()] == ["orders"] and store.snapshot_fingerprint() == before
        replace(store, "shop", [service_facts("shop", n) for n in ("orders", "catalog")])
        assert [s.name for s in store.list_services()] == ["catalog", "orders"]
