"""Nearest vectors found by PostgreSQL with pgvector: the column exists only where the extension
does, a trigger fills it from the stored float32 bytes whoever writes the row, and the answers are
the exact scan's — on random vectors and on the example system. Runs on the second throwaway
server (PostgreSQL 16 with pgvector, tests/support/postgres.py)."""

from __future__ import annotations

import random
import struct

import pytest
import sqlalchemy as sa

from orbitkb.bootstrap import Settings, build_application
from orbitkb.bootstrap.copying import copy_knowledge
from orbitkb.domain.retrieval import rank_nearest
from orbitkb.domain.runs import Embedding
from orbitkb.domain.usecases.indexing import IndexRequest
from orbitkb.postgres import PostgresKnowledgeStore, migrations, pgvector
from orbitkb.postgres.engine import Database
from orbitkb.sql import embeddings as embeddings_sql
from orbitkb.sql import vectors as vectors_sql
from orbitkb.sqlite import SqliteKnowledgeStore
from tests.support.ground_truth import EXAMPLE

MODEL = "pgvector-test"


def _engine(url: str) -> sa.Engine:
    return sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://"))


def _scatter(seed: int, owners: int = 60, dim: int = 16) -> list[Embedding]:
    rnd = random.Random(seed)
    out = [Embedding(("service", "api", "entity")[i % 3], f"o{i:03d}", field, f"h{i}{field}", MODEL,
                     tuple(rnd.gauss(0, 1) for _ in range(dim)))
           for i in range(owners) for field in ("name", "text")[: 1 + i % 2]]
    out.append(Embedding("api", "o-twin", "name", "ht", MODEL, out[0].vector))  # an exact tie
    return out


def test_a_server_with_pgvector_finds_nearest_vectors_itself(pgvector_url, monkeypatch):
    with PostgresKnowledgeStore(pgvector_url) as store:
        assert store.vector_search == "pgvector"
        store.put_embeddings(_scatter(1))
        stored = store.list_embeddings(MODEL)

        def refuse(*_: object) -> None:
            raise AssertionError("the exact scan was asked")

        monkeypatch.setattr(vectors_sql.VectorIndex, "nearest", refuse)
        rnd = random.Random(9)
        for _ in range(6):
            query = tuple(rnd.gauss(0, 1) for _ in range(16))
            for limit, floor, kinds in ((5, -1.0, None), (12, 0.2, None), (4, -1.0, ("api",)), (100, 0.0, None)):
                assert store.nearest_embeddings(MODEL, query, limit, floor, kinds) == \
                    rank_nearest(stored, query, limit, floor, kinds)
        assert [h.owner_id for h in store.nearest_embeddings(MODEL, stored[0].vector, 2)] == ["o-twin", "o000"]


def test_a_server_without_the_extension_keeps_the_exact_scan(pgvector_url, monkeypatch):
    monkeypatch.setattr(pgvector, "EXTENSION", "orbitkb_no_such_extension")
    with PostgresKnowledgeStore(pgvector_url) as store:
        assert store.schema_version() == migrations.LATEST and store.vector_search == "exact scan"
        store.put_embeddings(_scatter(2))
        query = _scatter(2)[5].vector
        assert store.nearest_embeddings(MODEL, query, 3) == rank_nearest(store.list_embeddings(MODEL), query, 3)
    engine = _engine(pgvector_url)
    with engine.connect() as conn:
        assert not pgvector.present(conn)
    engine.dispose()


def test_the_column_holds_every_float32_exactly_and_nothing_for_a_damaged_row(pgvector_url):
    values = (1.5, -2.25, 1e-45, -1.17549435e-38, 3.4028235e38, -0.0, 0.1, 7.0)
    as_float32 = list(struct.unpack("<8f", struct.pack("<8f", *values)))
    with PostgresKnowledgeStore(pgvector_url) as store:
        store.put_embeddings([Embedding("service", "s:exact", "name", "h", MODEL, values),
                              Embedding("service", "s:zero", "name", "h", MODEL, (0.0,) * 8)])
    engine = _engine(pgvector_url)
    with engine.begin() as conn:
        # rows written without the column (as `orbitkb copy` and a restore write them): decoded by the trigger
        conn.execute(sa.text("INSERT INTO embeddings VALUES ('m', 'service', 's:short', 'name', 'h', 8, :v),"
                             "('m', 'service', 's:nan', 'name', 'h', 2, :nan),"
                             "('m', 'service', 's:copied', 'name', 'h', 8, :all)"),
                     {"v": struct.pack("<7f", *values[:7]), "nan": struct.pack("<2f", 1.0, float("nan")),
                      "all": struct.pack("<8f", *values)})
        rows = dict(conn.execute(sa.text("SELECT owner_id, embedding::real[] FROM embeddings")).all())
    engine.dispose()
    # the driver reads real[] as the shortest decimals of each float32: compare as float32
    for written in ("s:exact", "s:copied"):
        assert list(struct.unpack("<8f", struct.pack("<8f", *rows[written]))) == as_float32
    assert rows["s:zero"] == [0.0] * 8
    assert rows["s:short"] is None and rows["s:nan"] is None
    with PostgresKnowledgeStore(pgvector_url) as store:
        assert [h.owner_id for h in store.nearest_embeddings(MODEL, values, 5)] == ["s:exact", "s:zero"]
        assert [h.owner_id for h in store.nearest_embeddings("m", values, 5)] == ["s:copied"]
        store.put_embeddings([Embedding("service", "s:inf", "name", "h", MODEL, (float("inf"),) * 8)])
        assert "s:inf" not in {h.owner_id for h in store.nearest_embeddings(MODEL, values, 5)}


def test_an_older_database_gets_the_column_with_its_vectors_filled(pgvector_url):
    db = Database(pgvector_url)
    migrations.upgrade(db, 3)
    vectors = _scatter(3)
    with db.write() as conn:
        assert not pgvector.present(conn)
        embeddings_sql.put(conn, vectors)
    db.dispose()
    with PostgresKnowledgeStore(pgvector_url) as store:
        assert store.schema_version() == 4 and store.vector_search == "pgvector"
        stored = store.list_embeddings(MODEL)
        assert store.nearest_embeddings(MODEL, vectors[7].vector, 8) == rank_nearest(stored, vectors[7].vector, 8)


def test_a_read_only_open_searches_with_pgvector_too(pgvector_url):
    with PostgresKnowledgeStore(pgvector_url) as store:
        store.put_embeddings(_scatter(4))
    with PostgresKnowledgeStore(pgvector_url, read_only=True) as reader:
        assert reader.vector_search == "pgvector"
        query = _scatter(4)[11].vector
        assert reader.nearest_embeddings(MODEL, query, 4) == rank_nearest(reader.list_embeddings(MODEL), query, 4)


QUESTIONS = ("payment", "order created", "stock reservation", "shipping label", "login",
             "Let customers pay with Pix at checkout", "Keep abandoned shopping carts for a month")


@pytest.fixture(scope="module")
def example(tmp_path_factory, pgvector_cluster):
    """The example system indexed with the packaged embedder into SQLite, copied to pgvector."""
    lite = str(tmp_path_factory.mktemp("pgvector") / "kb.db")
    app = build_application(Settings(db_path=lite, backend="offline", embedder="auto"))
    if app.adapters.embedder() is None:
        pytest.skip("the packaged embedding model is not installed")
    app.use_cases.index_repository()(IndexRequest(str(EXAMPLE), repository_name="shopfront"))
    app.adapters.store().close()
    url = pgvector_cluster.create_database()
    copy_knowledge(lite, url)
    return lite, url, app.adapters.embedder()


def test_the_example_ranks_alike_with_pgvector_and_the_exact_scan(example):
    lite, url, embedder = example
    with SqliteKnowledgeStore(lite) as exact, PostgresKnowledgeStore(url) as server:
        assert server.vector_search == "pgvector"
        model = embedder.model_id
        assert server.count_embeddings(model) == exact.count_embeddings(model) > 100
        for question, vector in zip(QUESTIONS, embedder.embed(list(QUESTIONS)), strict=True):
            for limit, floor in ((10, -1.0), (5, 0.3)):
                found, expected = server.nearest_embeddings(model, vector, limit, floor), \
                    exact.nearest_embeddings(model, vector, limit, floor)
                assert [(h.owner_id, h.field) for h in found] == [(h.owner_id, h.field) for h in expected], question
                assert [h.similarity for h in found] == pytest.approx([h.similarity for h in expected], abs=1e-9)


def test_the_example_searches_alike_from_sqlite_and_pgvector(example):
    """Hybrid search (bm25 + vectors, fused in the domain): top-5 overlapping at least 4 of 5 (the
    keyword halves differ by store: FTS5 and tsvector tokenise apart)."""
    lite, url, _ = example
    apps = [build_application(Settings(db_path=db, backend="offline", embedder="auto")) for db in (lite, url)]
    try:
        for question in QUESTIONS:
            answers = [app.use_cases.search()(question) for app in apps]
            assert [a.mode for a in answers] == ["hybrid", "hybrid"]
            tops = [{(h.kind, h.ref_id) for h in a.hits[:5]} for a in answers]
            assert len(tops[0] & tops[1]) >= min(4, len(tops[0])) and tops[0], question
    finally:
        for app in apps:
            app.adapters.store().close()
