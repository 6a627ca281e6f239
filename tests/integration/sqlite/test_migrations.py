"""Migrations on real files: a version-1 database upgrades in place with every row kept; a newer
database, a file that is not SQLite and a foreign SQLite database are refused with clear errors."""

from __future__ import annotations

import attrs
import pytest
import sqlalchemy as sa

from orbitkb.domain.errors import SchemaTooNew, StoreError
from orbitkb.domain.ids import service_id
from orbitkb.domain.model import (
    Api,
    CallKind,
    Component,
    Direction,
    EntityField,
    Evidence,
    Gap,
    Message,
    PersistenceEntity,
    Repository,
    Resource,
    Service,
    ServiceCall,
)
from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.runs import (
    ArchitectureFinding,
    ArchitectureRun,
    ChangeSurfaceRun,
    Embedding,
    Feedback,
    IndexedFile,
    IndexRun,
    Verification,
)
from orbitkb.sql import codec, tables
from orbitkb.sqlite import SqliteKnowledgeStore, migrations, search
from orbitkb.sqlite.engine import Database

SID = service_id("shop", "orders")
EV = (Evidence("orders/app.py", 3, 9, "abc", "decorator"),)
#: (table, object, nested attributes, attributes version 1 did not have)
V1_ROWS = [
    ("repositories", Repository("shop", "/src/shop", "git", "abc", "t0", (".",)), ("roots",), ()),
    ("services", Service(SID, "orders", "shop", "orders", "python", "flask", ("ord",), None, "Orders.", None,
                         evidence=EV), ("aliases", "evidence"), ("readme",)),
    ("components", Component("cmp:1", SID, "OrdersView", "orders/app.py", doc="Orders view."), (), ()),
    ("apis", Api("api:1", SID, "POST", "/orders", "create", "orders/app.py", 3, 9, evidence=EV),
     ("request_shape", "response_shape", "validations", "evidence"), ()),
    ("calls", ServiceCall("call:1", SID, CallKind.HTTP, "billing", from_api_id="api:1", path="/charge", evidence=EV),
     ("data_needed", "evidence"), ("from_api_ids",)),
    ("messages", Message("msg:1", SID, Direction.PUBLISHES, "orders.created", "kafka"), ("evidence",), ("api_ids",)),
    ("entities", PersistenceEntity("ent:1", SID, "orders", "sql_table", "postgres",
                                   fields=(EntityField("id", "int", False, True),)), ("fields", "evidence"), ()),
    ("resources", Resource("postgres", "shop", "database", "postgres", "postgres:16", EV), ("evidence",), ()),
    ("gaps", Gap("shop", "bad.py", "parse_error", "oops"), (), ()),
    ("indexed_files", IndexedFile("shop", "orders/app.py", "f" * 64, 99, SID, "python"), (), ()),
    ("index_runs", IndexRun(1, "shop", "t0", "t1", "ok"), (), ()),
    ("change_surface_runs", ChangeSurfaceRun(1, "add pix", "t2", hint_services=("orders",)),
     ("hint_services", "findings"), ()),
    ("feedback", Feedback(1, "orders", "confirmed", "t3"), (), ()),
    ("verifications", Verification(1, 1, "shop", "abc", "t4", predicted=("orders",), precision=1.0),
     ("predicted", "actual", "true_positives", "false_positives", "false_negatives", "unowned_files"), ()),
    ("architecture_runs", ArchitectureRun(1, "t5", (ArchitectureFinding("hub", "info", ("orders",), "r", {"n": 3}),)),
     ("findings",), ()),
]  # fmt: skip


def write_version_1(path: str) -> None:
    """What orbitkb with schema version 1 left on disk: its tables, with one row in each."""
    db = Database(path)
    assert migrations.upgrade(db, target=1) == 1
    with db.write() as conn:
        for table, obj, nested, absent in V1_ROWS:
            row = codec.to_row(obj, nested, drop=absent)
            conn.execute(sa.insert(sa.table(table, *(sa.column(k) for k in row))), [row])
        conn.execute(sa.insert(sa.table("analysis_cache", sa.column("key"), sa.column("value"))),
                     [{"key": "k1", "value": "{}"}])  # fmt: skip
        search.insert(
            conn, "shop", [SearchDocument("service", SID, SID, "orders", "orders", "orders", "flask", "")]
        )
    db.dispose()


def count_rows(path: str) -> dict[str, int]:
    db = Database(path)
    with db.read() as conn:
        names = [t for t, *_ in V1_ROWS] + ["analysis_cache", search.TABLE]
        counts = {
            n: conn.execute(sa.select(sa.func.count()).select_from(sa.table(n))).scalar_one() for n in names
        }
    db.dispose()
    return counts


def _column(path: str, table: str, column: str) -> str:
    db = Database(path)
    with db.read() as conn:
        value = conn.execute(sa.select(sa.column(column)).select_from(sa.table(table))).scalar_one()
    db.dispose()
    return str(value)


def test_a_version_1_database_upgrades_in_place_keeping_every_row(tmp_path):
    path = str(tmp_path / "old.db")
    write_version_1(path)
    before = count_rows(path)
    assert set(before.values()) == {1}
    with SqliteKnowledgeStore(path) as store:
        assert store.schema_version() == migrations.LATEST == 7
        assert store.list_technologies() == []
        assert count_rows(path) == before | {"analysis_cache": 0}  # every row kept but the cache (version 5)
        (svc,) = store.list_services()
        assert svc == V1_ROWS[1][1] and svc.readme is None
        assert store.list_apis(SID)[0].evidence == EV
        assert [h.ref_id for h in store.search(["orders"])] == [SID]
        assert [h.ref_id for h in store.search(["orders"], kinds=["service"])] == [SID]  # version 7: its band
        assert store.get_change_surface_run(1).hint_services == ("orders",)
        assert store.list_architecture_runs()[0].findings[0].detail == {"n": 3}
        # version 4: the one API a call had becomes its list of APIs
        assert store.list_calls()[0].from_api_ids == ("api:1",) and store.list_messages()[0].api_ids == ()
        assert _column(path, "calls", "from_api_ids") == '["api:1"]'
        # version 5: the text analysis cache is dropped (re-analysed), new values are compressed
        assert store.analysis_cache().get_many(["k1"]) == {}
        store.analysis_cache().put_many({"k1": '{"again": true}'})
        assert store.analysis_cache().get_many(["k1"]) == {"k1": '{"again": true}'}
        # what version 2 added works on the upgraded file
        store.put_llm_cache("q", "a")
        store.put_embeddings([Embedding("service", SID, "summary", "h", "m", (1.0, 2.0))])
        store.update_services([attrs.evolve(svc, short_desc="enriched")])
        assert store.get_service_by_id(SID).short_desc == "enriched"
    with SqliteKnowledgeStore(path) as again:  # reopening an up-to-date file changes nothing
        assert again.get_llm_cache("q") == "a" and again.schema_version() == 7
        assert again.analysis_cache().get_many(["k1"]) == {"k1": '{"again": true}'}


def test_a_fresh_database_has_exactly_the_current_tables(tmp_path):
    path = str(tmp_path / "new.db")
    SqliteKnowledgeStore(path).close()
    inspector = sa.inspect(sa.create_engine(f"sqlite:///{path}"))
    for table in tables.metadata.sorted_tables:
        on_disk = {c["name"] for c in inspector.get_columns(table.name)}
        assert on_disk == set(table.c.keys()), table.name
        indexes = {i["name"] for i in inspector.get_indexes(table.name)}
        assert {i.name for i in table.indexes} <= indexes, table.name


def test_a_newer_database_is_refused_naming_both_versions(tmp_path):
    path = str(tmp_path / "future.db")
    newer = str(migrations.LATEST + 1)
    SqliteKnowledgeStore(path).close()
    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE schema_meta SET value = :newer WHERE key = 'version'"), {"newer": newer})
    with pytest.raises(SchemaTooNew) as raised:
        SqliteKnowledgeStore(path)
    assert newer in str(raised.value) and f"version {migrations.LATEST}" in str(raised.value) and raised.value.hint
    with engine.connect() as conn:  # left untouched
        assert conn.execute(sa.text("SELECT value FROM schema_meta")).scalar() == newer


@pytest.mark.parametrize(
    "content",
    [
        b"this is a text file, not a database\n" * 200,
        bytes(range(256)) * 64,
        b"SQLite format 3\x00" + b"\xff" * 4000,
    ],
)
def test_a_file_that_is_not_sqlite_gives_a_store_error(tmp_path, content):
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    with pytest.raises(StoreError) as raised:
        SqliteKnowledgeStore(str(path))
    assert str(path) in str(raised.value)
    assert path.read_bytes() == content


def test_a_foreign_sqlite_database_and_a_folder_are_refused(tmp_path):
    path = tmp_path / "other.db"
    with sa.create_engine(f"sqlite:///{path}").begin() as conn:
        conn.execute(sa.text("CREATE TABLE customers (id INTEGER)"))
    with pytest.raises(StoreError, match="not written by orbitkb"):
        SqliteKnowledgeStore(str(path))
    with pytest.raises(StoreError, match="folder"):
        SqliteKnowledgeStore(str(tmp_path))


def test_an_empty_file_and_missing_folders_become_a_database(tmp_path):
    empty = tmp_path / "empty.db"
    empty.touch()
    with SqliteKnowledgeStore(str(empty)) as store:
        assert store.schema_version() == 7
    with SqliteKnowledgeStore(str(tmp_path / "a" / "b" / "kb.db")) as store:
        assert store.list_services() == []


def test_the_analysis_cache_is_stored_compressed_and_a_damaged_row_is_a_miss(tmp_path):
    path = str(tmp_path / "kb.db")
    text = '{"facts": [' + ", ".join(f'{{"name": "handler_{i}", "line": {i}}}' for i in range(300)) + "]}"
    with SqliteKnowledgeStore(path) as store:
        store.analysis_cache().put_many({"big": text, "odd": "caf\u00e9 \ud800 surrogate"})
        assert store.analysis_cache().get_many(["big", "odd"]) == {"big": text, "odd": "caf\u00e9 \ud800 surrogate"}
    db = Database(path)
    with db.read() as conn:
        stored = conn.execute(sa.text("SELECT value FROM analysis_cache WHERE key = 'big'")).scalar_one()
    assert isinstance(stored, bytes) and len(stored) * 4 < len(text.encode())  # compressed, several times smaller
    with db.write() as conn:
        conn.execute(sa.text("UPDATE analysis_cache SET value = x'00ff00' WHERE key = 'big'"))
    db.dispose()
    with SqliteKnowledgeStore(path) as store:
        assert store.analysis_cache().get_many(["big", "odd"]) == {"odd": "caf\u00e9 \ud800 surrogate"}
