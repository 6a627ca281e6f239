"""PostgreSQL search ranked in SQL from postings (migration 3): the same order and scores as
SQLite's FTS5 bm25 and as the positional ranking it replaces for single words, ties at the limit
broken alike, postings and corpus statistics kept with each repository's snapshot, an older
database filled in place, and snippets found deep in long text."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from orbitkb.domain.ports import SearchDocument
from orbitkb.postgres import PostgresKnowledgeStore, migrations, search
from orbitkb.postgres.engine import Database
from orbitkb.sql.terms import WEIGHTS, tokens
from orbitkb.sqlite import SqliteKnowledgeStore
from tests.contract.conftest import replace, service_facts


def _doc(kind: str, ref: str, service: str, name: str, keywords: str = "", text: str = "") -> SearchDocument:
    return SearchDocument(kind, ref, f"svc:{service}", service, name, name.replace("_", " "), keywords, text)


#: Words in a name, in keywords, in free text, repeated, as prefixes of longer words, across kinds.
DOCS = [
    _doc("service", "s1", "billing", "billing", "invoices payments", "Bills customers monthly; billing runs."),
    _doc("api", "a1", "billing", "POST /invoices", "invoice create", "Creates an invoice for an order."),
    _doc("api", "a2", "billing", "GET /invoices/{id}", "invoice read", "Reads one invoice."),
    _doc("entity", "e1", "billing", "invoice_line", "invoice line amount", "invoice invoice invoice lines"),
    _doc("component", "c1", "orders", "OrderBook", "orders book", "Keeps every order and its ordering rules."),
    _doc("call", "k1", "orders", "orders -> billing", "orders billing http", "Asks billing to invoice an order."),
    _doc("message", "m1", "orders", "order.created", "order created kafka", "Published when an order is placed."),
    _doc("technology", "t1", "orders", "kafka", "kafka broker", "Orders talk to Kafka."),
    _doc("source", "x1", "orders", "orders", "", " ".join(["order", "reorder", "ordering", "cart"] * 40)),
    _doc("source", "x2", "billing", "billing", "", " ".join(["invoice", "pdf", "ledger"] * 60)),
]
QUERIES = (["invoice"], ["order"], ["orders"], ["bill", "invoice"], ["kafka"], ["ledger"], ["line", "amount"],
           ["ord"], ["pdf", "order", "cart"], ["nothing"])
KINDS = (None, ("api",), ("source",), ("service", "api", "component", "call", "message", "entity", "technology"))


@pytest.fixture
def pair(postgres_url, tmp_path):
    lite = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    pg = PostgresKnowledgeStore(postgres_url)
    for store in (lite, pg):
        replace(store, "shop", [service_facts("shop", "orders")], documents=DOCS)
    yield lite, pg
    lite.close()
    pg.close()


def _ranking(hits):
    return [(h.kind, h.ref_id, round(h.score, 6), h.field) for h in hits]


@pytest.mark.parametrize("kinds", KINDS, ids=lambda k: ",".join(k) if k else "all")
@pytest.mark.parametrize("limit", [1, 3, 50])
def test_single_words_rank_as_fts5_bm25_does(pair, kinds, limit):
    lite, pg = pair
    for terms in QUERIES:
        assert _ranking(pg.search(terms, limit, kinds)) == _ranking(lite.search(terms, limit, kinds)), terms


def test_the_postings_ranking_equals_the_positional_one(pair):
    _, pg = pair
    for terms in QUERIES:
        for kinds in KINDS:
            params = {"expression": search.match_expression(terms), "options": search.SNIPPET_OPTIONS, "limit": 20,
                      "kinds": list(kinds) if kinds else None, "starts": [t for t in terms]}
            with pg._db.read() as conn:
                fast = search.search(conn, terms, 20, kinds)
                slow = search._ranked_from_positions(conn, search.phrases(terms), params)
            assert [(h.ref_id, round(h.score, 9)) for h in fast] == [(r["ref_id"], round(r["score"], 9))
                                                                     for r in slow], (terms, kinds)


def test_ties_at_the_limit_are_broken_by_kind_name_and_id_as_sqlite_does(postgres_url, tmp_path):
    same = [_doc(kind, f"r{i}", "shop", f"thing {name}", "refund", "refund")
            for i, (kind, name) in enumerate([("api", "b"), ("api", "a"), ("entity", "a"), ("api", "a"),
                                              ("component", "z"), ("api", "c")])]
    lite = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    with PostgresKnowledgeStore(postgres_url) as pg:
        for store in (lite, pg):
            replace(store, "shop", [service_facts("shop", "orders")], documents=same)
        for limit in (1, 2, 3, 4, 6):
            expected = [(h.kind, h.name, h.ref_id) for h in lite.search(["refund"], limit)]
            assert [(h.kind, h.name, h.ref_id) for h in pg.search(["refund"], limit)] == expected, limit
    lite.close()


def _count(store: PostgresKnowledgeStore, sql: str, **params: object) -> int:
    with store._db.read() as conn:
        return int(conn.execute(sa.text(sql), params).scalar() or 0)


def test_postings_and_corpus_statistics_follow_each_repository_snapshot(postgres_url):
    postings = ("SELECT count(*) FROM search_postings p JOIN search_docs d ON d.id = p.doc_id "
                "WHERE d.repository = :r")
    with PostgresKnowledgeStore(postgres_url) as pg:
        replace(pg, "shop", [service_facts("shop", "orders")], documents=DOCS)
        replace(pg, "mall", [service_facts("mall", "carts")], documents=DOCS[:2])
        shop, mall = _count(pg, postings, r="shop"), _count(pg, postings, r="mall")
        assert shop > mall > 0
        assert _count(pg, "SELECT docs FROM search_stats WHERE repository = 'shop'") == len(DOCS)
        replace(pg, "shop", [service_facts("shop", "orders")], documents=DOCS[:3])  # a smaller snapshot
        assert _count(pg, "SELECT docs FROM search_stats WHERE repository = 'shop'") == 3
        assert 0 < _count(pg, postings, r="shop") < shop and _count(pg, postings, r="mall") == mall
        assert pg.remove_repository("shop")
        assert _count(pg, "SELECT count(*) FROM search_stats WHERE repository = 'shop'") == 0
        assert _count(pg, "SELECT count(*) FROM search_postings") == mall
        assert [h.ref_id for h in pg.search(["invoices"])] == ["a1", "s1"]


def test_a_version_2_database_gains_postings_from_its_documents(postgres_url, tmp_path):
    db = Database(postgres_url)
    assert migrations.upgrade(db, target=2) == 2  # what orbitkb with PostgreSQL schema 2 created
    names = [name for name, _ in WEIGHTS]
    with db.write() as conn:
        assert "search_postings" not in sa.inspect(conn).get_table_names()
        for doc in DOCS:  # a search document as schema 2 wrote it: the table alone
            row = {"kind": doc.kind, "ref_id": doc.ref_id, "service": doc.service, "name": doc.name,
                   "repository": "shop", **{n: getattr(doc, n) for n in names}}
            row.update({f"{n}_tokens": " ".join(tokens(getattr(doc, n))) for n in names})
            row["ntok"] = sum(len(tokens(getattr(doc, n))) for n in names)
            conn.execute(sa.text(
                "INSERT INTO search_docs (kind, ref_id, service, name, repository, name_text, keywords, text, ntok, "
                f"doc) VALUES (:kind, :ref_id, :service, :name, :repository, :name_text, :keywords, :text, :ntok, "
                f"{search._vector_sql()})"), row)
    db.dispose()
    lite = SqliteKnowledgeStore(str(tmp_path / "kb.db"))
    replace(lite, "shop", [service_facts("shop", "orders")], documents=DOCS)
    with PostgresKnowledgeStore(postgres_url) as pg:
        assert pg.schema_version() == migrations.LATEST >= 3
        assert _count(pg, "SELECT docs FROM search_stats WHERE repository = 'shop'") == len(DOCS)
        for terms in QUERIES:
            assert _ranking(pg.search(terms, 10)) == _ranking(lite.search(terms, 10)), terms
    lite.close()


@pytest.mark.parametrize("lead", [0, 900, 6000])
def test_a_word_far_into_a_long_text_is_in_its_snippet(postgres_url, lead):
    filler = " ".join(f"word{i}" for i in range(lead))
    doc = _doc("source", "x", "orders", "orders", "", f"{filler} the Refunds ledger closes nightly {filler}")
    with PostgresKnowledgeStore(postgres_url) as pg:
        replace(pg, "shop", [service_facts("shop", "orders")], documents=[doc])
        (hit,) = pg.search(["refund"])
        assert hit.snippet is not None and "Refunds ledger" in hit.snippet
        (phrase_hit,) = pg.search(["refunds ledger"])  # a phrase: ranked from positions, the same snippet
        assert phrase_hit.snippet is not None and "Refunds ledger" in phrase_hit.snippet
