"""`copy` between stores keeps every row: facts, search, runs with their ids, feedback,
verifications, caches and embeddings; refuses a non-empty target; ids continue after a copy."""

from __future__ import annotations

import pytest

from orbitkb.bootstrap.copying import copy_knowledge
from orbitkb.domain.errors import InvalidInput, PathNotFound, RepositoryConflict
from orbitkb.domain.runs import Embedding, Feedback, Verification
from orbitkb.postgres import PostgresKnowledgeStore
from orbitkb.sqlite import SqliteKnowledgeStore
from tests.contract.conftest import replace, service_facts
from tests.contract.test_runs_contract import index_run, surface_run


def _fill(store) -> None:
    replace(store, "shop", [service_facts("shop", n) for n in ("orders", "billing")])
    store.add_index_run(index_run("shop", "2024-05-01T10:00:00Z"))
    first = store.add_change_surface_run(surface_run("add pix"))
    second = store.add_change_surface_run(surface_run("add boleto"))
    store.add_feedback(Feedback(first, "payments", "confirmed", "2024-05-03T00:00:00Z"))
    store.add_feedback(Feedback(second, "orders", "rejected", "2024-05-03T00:01:00Z"))
    store.add_verification(Verification(None, second, "shop", "abc", "2024-05-04T00:00:00Z", ("payments",),
                                        ("payments", "orders"), ("payments",), (), ("orders",), (), 1.0, 0.5))
    store.put_llm_cache("k1", '{"answer": "ok"}')
    store.analysis_cache().put_many({"file:1": '{"parsed": true}', "file:2": "ünïcode"})
    store.put_embeddings([Embedding("service", "svc:1", "desc", "h1", "mini", (0.6, 0.8, 0.0)),
                          Embedding("run", str(first), "task", "h2", "mini", (1.0, 0.0, 0.0))])


def _everything(store) -> tuple:
    return (
        store.list_repositories(), store.list_services(), store.list_apis(), store.list_calls(),
        store.list_messages(), store.list_entities(), store.list_technologies(), store.list_components(),
        store.list_resources(), store.list_gaps(), store.list_indexed_files("shop"),
        store.list_index_runs(), store.list_change_surface_runs(), store.list_feedback(),
        store.list_verifications(), store.get_llm_cache("k1"),
        store.analysis_cache().get_many(["file:1", "file:2"]), store.list_embeddings("mini"),
        [(h.ref_id, round(h.score, 6)) for h in store.search(["orders"])],
    )


def test_sqlite_to_postgres_and_back_keeps_every_row(tmp_path, postgres_url):
    source = str(tmp_path / "kb.db")
    with SqliteKnowledgeStore(source) as lite:
        _fill(lite)
        expected = _everything(lite)
    report = copy_knowledge(source, postgres_url)
    assert report.counts["feedback"] == 2 and report.counts["embeddings"] == 2 and report.counts["search_docs"] == 2
    with PostgresKnowledgeStore(postgres_url) as pg:
        assert _everything(pg) == expected
        # ids continue after the copied ones
        assert pg.add_change_surface_run(surface_run("next")) == 3
    back = str(tmp_path / "back.db")
    again = copy_knowledge(postgres_url, back)
    assert again.counts == {**report.counts, "change_surface_runs": 3}
    with SqliteKnowledgeStore(back) as copied:
        assert copied.list_feedback() == expected[13]


def test_a_target_that_holds_anything_is_refused_and_left_alone(tmp_path, postgres_url):
    source = str(tmp_path / "kb.db")
    with SqliteKnowledgeStore(source) as lite:
        _fill(lite)
    with PostgresKnowledgeStore(postgres_url) as pg:
        pg.put_llm_cache("mine", "kept")
    with pytest.raises(RepositoryConflict, match="not empty"):
        copy_knowledge(source, postgres_url)
    with PostgresKnowledgeStore(postgres_url) as pg:
        assert pg.list_services() == [] and pg.get_llm_cache("mine") == "kept"


def test_a_missing_source_or_the_same_database_is_bad_input(tmp_path):
    with pytest.raises(PathNotFound):
        copy_knowledge(str(tmp_path / "absent.db"), str(tmp_path / "new.db"))
    assert not (tmp_path / "new.db").exists()
    SqliteKnowledgeStore(str(tmp_path / "kb.db")).close()
    with pytest.raises(InvalidInput, match="same database"):
        copy_knowledge(str(tmp_path / "kb.db"), str(tmp_path / "kb.db"))
