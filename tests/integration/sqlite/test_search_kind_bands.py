"""Search documents numbered by kind band (migration 7): each kind's rows sit in its own rowid
range, so a kind-filtered query reads that kind's matches only; a version-6 database is
renumbered in place and answers as before; a query for kinds the snapshot has no documents of
is answered without reading the index."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from orbitkb.domain.ports import SearchDocument, SearchQuery
from orbitkb.sqlite import SqliteKnowledgeStore, migrations, search
from orbitkb.sqlite.engine import Database
from orbitkb.sqlite.migrations import v0007_search_kind_bands

KINDS = ("service", "api", "technology", "source", "entity", "gadget", "widget")  # the last two have no band


def documents(repo: str, tag: str = "v1") -> list[SearchDocument]:
    """Documents of every kind above; the words "ledger" and "status" occur in all of them."""
    out = []
    for i, kind in enumerate(KINDS * 3):
        ref = f"{repo}:{kind}:{i}"
        words = "ledger status" if i % 2 else "status ledger refund"
        out.append(SearchDocument(kind, ref, f"svc:{repo}", repo, f"{kind} {i}", f"{kind} {i} {tag}", words,
                                  f"{words} of the {kind} {tag}"))
    return out


def snapshot(make_snapshot, repo: str, tag: str = "v1") -> dict[str, object]:
    return {**make_snapshot(repo, 2, 1, tag), "documents": documents(repo, tag)}


def rowids(path: str) -> dict[str, list[int]]:
    with sqlite3.connect(path) as con:
        out: dict[str, list[int]] = {}
        for kind, rowid in con.execute("SELECT kind, rowid FROM search_docs ORDER BY rowid"):
            out.setdefault(kind, []).append(rowid)
        return out


QUERIES = [
    SearchQuery(terms, limit, kinds, snippets)
    for terms in (("status",), ("ledger", "refund"), ("refund of",))
    for kinds in (None, ("api",), ("technology", "source"), ("gadget",), ("gadget", "api", "widget"), ("history",))
    for limit in (3, 50)
    for snippets in (True, False)
]


def test_each_kind_numbers_its_documents_in_its_own_band_through_reindexing(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    with SqliteKnowledgeStore(path) as store:
        store.replace_repository_facts(**snapshot(make_snapshot, "shop"))
        store.replace_repository_facts(**snapshot(make_snapshot, "crm"))
        store.replace_repository_facts(**snapshot(make_snapshot, "shop", "v2"))  # deletes, then numbers after the rest
    found = rowids(path)
    for kind, ids in found.items():
        lo, hi = search.band_range(search.band_of(kind))
        assert all(lo < rowid <= hi for rowid in ids), kind
    assert len(found["api"]) == 6 and len(set(found["api"])) == 6
    assert search.band_of("gadget") == search.band_of("widget") == 0 != search.band_of("api")


def test_a_kind_filtered_search_answers_as_the_unfiltered_one_keeps_that_kind(tmp_path, make_snapshot):
    with SqliteKnowledgeStore(str(tmp_path / "kb.db")) as store:
        store.replace_repository_facts(**snapshot(make_snapshot, "shop"))
        for q in QUERIES:
            every = store.search(q.terms, limit=500)
            wanted = [h for h in every if q.kinds is None or h.kind in q.kinds][: q.limit]
            assert store.search(q.terms, q.limit, q.kinds) == wanted, q


def write_version_6(path: str, docs: list[SearchDocument]) -> None:
    """A database as version 6 wrote it: search documents numbered one after another."""
    db = Database(path)
    assert migrations.upgrade(db, target=6) == 6
    names = ["name_text", "keywords", "text", "kind", "ref_id", "service_id", "service", "name", "repository"]
    with db.write() as conn:
        if docs:
                conn.execute(sa.text(f"INSERT INTO search_docs ({', '.join(names)}) "
                                 f"VALUES ({', '.join(':' + n for n in names)})"),
                         [{"name_text": d.name_text, "keywords": d.keywords, "text": d.text, "kind": d.kind,
                           "ref_id": d.ref_id, "service_id": d.service_id, "service": d.service, "name": d.name,
                           "repository": "shop"} for d in docs])
    db.dispose()


def test_a_version_6_database_is_renumbered_in_place_and_answers_as_a_new_one(tmp_path, make_snapshot):
    old, new = str(tmp_path / "v6.db"), str(tmp_path / "new.db")
    write_version_6(old, documents("shop"))
    assert min(rowids(old)["api"]) < 100  # one after another: no band
    with SqliteKnowledgeStore(new) as fresh:
        fresh.replace_repository_facts(**snapshot(make_snapshot, "shop"))
        expected = fresh.search_many(QUERIES)
    with SqliteKnowledgeStore(old) as migrated:
        assert migrated.schema_version() == 7
        assert migrated.search_many(QUERIES) == expected
        assert [migrated.search(q.terms, q.limit, q.kinds) for q in QUERIES if q.snippets] == \
               [e for q, e in zip(QUERIES, expected, strict=True) if q.snippets]
    assert {kind: len(ids) for kind, ids in rowids(old).items()} == {kind: 3 for kind in KINDS}
    assert all(rowid >> search.BAND_BITS == search.band_of(kind) for kind, ids in rowids(old).items() for rowid in ids)


def test_migration_7_froze_the_bands_the_store_numbers_with():
    frozen = v0007_search_kind_bands._BANDS
    assert {kind: search.KIND_BANDS[kind] for kind in frozen} == frozen
    assert v0007_search_kind_bands._BAND_BITS == search.BAND_BITS


def test_an_empty_database_migrates_to_bands_too(tmp_path):
    path = str(tmp_path / "v6-empty.db")
    write_version_6(path, [])
    with SqliteKnowledgeStore(path) as store:
        assert store.schema_version() == 7 and store.search(["status"], kinds=["api"]) == []


class MatchCounter:
    """Counts the full-text statements a store's engine runs."""

    def __init__(self, store: SqliteKnowledgeStore) -> None:
        self.count = 0
        sa.event.listen(store._db.engine, "before_cursor_execute", self._seen)

    def _seen(self, _conn, _cursor, statement, *_rest) -> None:
        self.count += " MATCH " in statement


def test_a_query_only_for_kinds_without_documents_never_reads_the_index(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    with SqliteKnowledgeStore(path) as writer:
        writer.replace_repository_facts(**snapshot(make_snapshot, "shop"))
        server = SqliteKnowledgeStore(path, read_only=True)  # a long-lived reader, as the MCP server
        seen = MatchCounter(server)
        none = [SearchQuery(("status",), 10, ("history",)), SearchQuery(("status",), 10, ("history", "call"))]
        assert server.search_many(none) == [[], []] and server.search(["status"], kinds=["history"]) == []
        assert seen.count == 0
        some = server.search_many([*none, SearchQuery(("status",), 10, ("history", "api")),
                                   SearchQuery(("status",), 10, ("widget",))])
        assert some[:2] == [[], []] and {h.kind for h in some[2]} == {"api"} and {h.kind for h in some[3]} == {"widget"}
        assert seen.count == 2
        # another connection indexes history: the next query of this snapshot finds it
        docs = [*documents("shop"), SearchDocument("history", "svc:shop#history", "svc:shop", "shop", "shop", "shop",
                                                   "", "fix the status of refunds")]
        writer.replace_repository_facts(**{**snapshot(make_snapshot, "shop"), "documents": docs})
        (found,) = server.search_many([SearchQuery(("status",), 10, ("history",))])
        assert [h.ref_id for h in found] == ["svc:shop#history"]
        server.close()


@pytest.fixture(scope="module")
def shopfront(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from benchmarks.changebench.corpus import system_paths
    from benchmarks.changebench.runner import index, make_app

    path = tmp_path_factory.mktemp("bands") / "kb.db"
    app = make_app(str(path), "off")
    index(app, str(system_paths()["shopfront"]), "shopfront")
    return path


def previous_layout(src: Path, dst: str) -> None:
    """The facts of ``src`` in a version-6 database, numbered one after another as it did."""
    db = Database(dst)
    migrations.upgrade(db, target=6)
    db.dispose()
    con = sqlite3.connect(dst)
    con.execute("ATTACH ? AS src", (str(src),))
    tables = [name for name, in con.execute("SELECT name FROM src.sqlite_master WHERE type = 'table' AND name NOT "
                                            "LIKE 'search_docs%' AND name NOT LIKE 'sqlite_%' AND name != 'schema_meta'")]
    for name in tables:
        con.execute(f"INSERT INTO main.{name} SELECT * FROM src.{name}")
    con.execute("INSERT OR REPLACE INTO main.schema_meta SELECT * FROM src.schema_meta WHERE key != 'version'")
    columns = "name_text, keywords, text, kind, ref_id, service_id, service, name, repository"
    con.execute(f"INSERT INTO main.search_docs ({columns}) SELECT {columns} FROM src.search_docs "
                "ORDER BY repository, service_id, name, ref_id")
    con.commit()
    con.close()


def test_find_change_surface_answers_the_same_on_a_renumbered_database(shopfront, tmp_path):
    from benchmarks.changebench.corpus import load_tasks
    from benchmarks.changebench.runner import make_app, predict

    old = str(tmp_path / "v6.db")
    previous_layout(shopfront, old)
    assert max(max(ids) for ids in rowids(old).values()) < 1 << search.BAND_BITS
    tasks = [t.task for t in load_tasks(system="shopfront")][:12] + ["Replace the flat tyre on the bicycle"]
    fresh = make_app(str(shopfront), "off")
    expected = [predict(fresh, task) for task in tasks]
    migrated = make_app(old, "off")
    assert [predict(migrated, task) for task in tasks] == expected
    assert all(rowid >> search.BAND_BITS == search.band_of(kind) for kind, ids in rowids(old).items() for rowid in ids)


def test_a_version_6_backup_restored_under_a_running_reader_is_renumbered_at_once(tmp_path, make_snapshot):
    from orbitkb.sqlite.backup import SqliteBackups

    live, old = str(tmp_path / "live.db"), str(tmp_path / "v6.db")
    write_version_6(old, documents("shop"))
    with SqliteKnowledgeStore(live) as writer:
        writer.replace_repository_facts(**snapshot(make_snapshot, "crm"))
    with SqliteKnowledgeStore(live, read_only=True) as server:  # open before the restore, as a server is
        assert {h.service for h in server.search(["status"], 50, ["api"])} == {"crm"}
        SqliteBackups(live).restore(old)
        assert server.schema_version() == 7
        hits = server.search(["status"], 50, ["api"])
        assert {h.service for h in hits} == {"shop"} and len(hits) == 3
