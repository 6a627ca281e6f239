"""Contract, by role: ModelReader (the whole snapshot and its fingerprint), SearchIndex.search_many
and RunLog.change_history — for every store. Which writes move the fingerprint is the contract a
load-once reader relies on: every write of facts does, nothing else does."""

from __future__ import annotations

import attrs
import pytest

from orbitkb.domain.errors import RepositoryNotFound
from orbitkb.domain.ports import (
    Caches,
    EmbeddingStore,
    FactsReader,
    FactsWriter,
    IndexLedger,
    KnowledgeStore,
    ModelReader,
    RunLog,
    SearchIndex,
    SearchQuery,
)
from orbitkb.domain.runs import ArchitectureRun, ChangeSurfaceRun, Embedding, Feedback, IndexRun, Verification
from orbitkb.domain.system_model import SystemModel
from orbitkb.sqlite import SqliteKnowledgeStore
from tests.support.stores import role_methods

ROLES = (FactsReader, ModelReader, FactsWriter, IndexLedger, SearchIndex, EmbeddingStore, Caches, RunLog)


@pytest.mark.parametrize("role", ROLES, ids=lambda r: r.__name__)
def test_every_store_implements_every_method_of_each_role(store, role):
    missing = [m for m in role_methods(role) if not callable(getattr(store, m, None))]
    assert not missing
    assert set(role_methods(role)) <= set(dir(KnowledgeStore))


def test_a_loaded_model_is_the_snapshot_at_its_fingerprint(store, samples):
    empty = store.load_model()
    assert isinstance(empty, SystemModel) and empty.is_empty and empty.fingerprint == store.snapshot_fingerprint()
    facts = [samples.service_facts("shop", n) for n in ("orders", "billing")]
    samples.replace(store, "shop", facts)
    model = store.load_model()
    assert model.fingerprint == store.snapshot_fingerprint() != empty.fingerprint
    assert model.list_services() == store.list_services()
    assert model.labels == {f.service.id: f.service.name for f in facts}
    assert model.catalog.lookup("orders-svc") == facts[0].service  # an alias resolves
    assert {e.source for e in model.graph.edges} == {"billing", "orders"}
    assert model.graph is model.graph  # built once per snapshot
    assert model.count_apis() == store.count_apis()


def _writes(samples):
    """Every FactsWriter method, each applied once to a store holding the "shop" snapshot."""
    orders = samples.service_facts("shop", "orders")
    return {
        "upsert_repository": lambda s: s.upsert_repository(samples.repository("shop", commit="new")),
        "replace_repository_facts": lambda s: samples.replace(s, "shop", [orders]),
        "update_calls": lambda s: s.update_calls([attrs.evolve(orders.calls[0], reason="changed")]),
        "update_services": lambda s: s.update_services([attrs.evolve(orders.service, short_desc="new")]),
        "update_apis": lambda s: s.update_apis([attrs.evolve(orders.apis[0], summary="new")]),
        "update_components": lambda s: s.update_components([attrs.evolve(orders.components[0], summary="new")]),
        "update_entities": lambda s: s.update_entities([attrs.evolve(orders.entities[0], description="new")]),
        "update_messages": lambda s: s.update_messages([attrs.evolve(orders.messages[0], description="new")]),
        "remove_repository": lambda s: s.remove_repository("shop"),
    }


def test_the_writes_list_is_the_whole_facts_writer_role(samples):
    assert set(_writes(samples)) == set(role_methods(FactsWriter))


@pytest.mark.parametrize("write", role_methods(FactsWriter))
def test_every_write_of_facts_moves_the_fingerprint(store, samples, write):
    samples.replace(store, "shop", [samples.service_facts("shop", "orders")])
    before = store.snapshot_fingerprint()
    _writes(samples)[write](store)
    after = store.snapshot_fingerprint()
    assert after != before
    assert store.load_model().fingerprint == after


def test_reads_runs_feedback_caches_and_embeddings_leave_the_fingerprint(store, samples):
    samples.replace(store, "shop", [samples.service_facts("shop", "orders")])
    before = store.snapshot_fingerprint()
    store.load_model()
    store.list_apis()
    store.search(["orders"])
    run_id = store.add_change_surface_run(ChangeSurfaceRun(None, "task", "2024-01-01T00:00:00Z"))
    store.add_feedback(Feedback(run_id, "orders", "confirmed", "2024-01-01T00:00:00Z"))
    store.add_index_run(IndexRun(None, "shop", "/src/shop", "2024-01-01T00:00:00Z"))
    store.put_llm_cache("k", "v")
    store.analysis_cache().put_many({"k": "v"})
    store.put_embeddings([Embedding("run", f"run:{run_id}", "task", "h", "m", (1.0, 0.0))])
    store.add_architecture_run(ArchitectureRun(None, "2024-01-01T00:00:00Z"))
    assert store.snapshot_fingerprint() == before


def test_a_refused_write_leaves_the_fingerprint(store, samples):
    samples.replace(store, "shop", [samples.service_facts("shop", "orders")])
    before = store.snapshot_fingerprint()
    assert store.remove_repository("never-indexed") is False
    with pytest.raises(RepositoryNotFound):
        store.upsert_repository(samples.repository("gone"), if_indexed=True)
    assert store.snapshot_fingerprint() == before


def test_search_many_answers_each_query_as_search_does(store, samples):
    samples.replace(store, "shop", [samples.service_facts("shop", n) for n in ("orders", "billing")])
    queries = [SearchQuery(("orders",), 5), SearchQuery(("billing",), 5, ("service",)), SearchQuery((), 5),
               SearchQuery(("nothing-matches-this",), 5), SearchQuery(("orders",), 5, ("api",))]
    assert store.search_many(queries) == [store.search(list(q.terms), q.limit, q.kinds) for q in queries]
    assert store.search_many([]) == []


def test_change_history_reads_runs_feedback_verifications_and_task_vectors_at_once(store):
    ids = [store.add_change_surface_run(ChangeSurfaceRun(None, f"task {i}", "2024-01-01T00:00:00Z"))
           for i in range(3)]
    store.add_feedback(Feedback(ids[0], "orders", "confirmed", "2024-01-01T00:00:00Z"))
    store.add_feedback(Feedback(ids[1], "billing", "rejected", "2024-01-01T00:00:00Z"))
    store.add_verification(Verification(None, ids[0], "shop", "abc", "2024-01-01T00:00:00Z", precision=0.5))
    store.put_embeddings([Embedding("run", f"run:{ids[2]}", "task", "h", "m1", (0.5, 0.5)),
                          Embedding("service", "svc:x", "name", "h", "m1", (1.0, 0.0))])
    history = store.change_history(limit=2, model_id="m1")
    assert history.runs == tuple(store.list_change_surface_runs(limit=2))
    assert history.feedback == tuple(store.list_feedback())
    assert history.verifications == tuple(store.list_verifications())
    assert history.feedback_of("billing") == store.list_feedback("billing")
    assert history.verifications_of(ids[0]) == store.list_verifications(ids[0])
    assert history.task_vectors == {f"run:{ids[2]}": (0.5, 0.5)}  # runs only, this model only
    assert store.change_history(model_id=None).task_vectors == {}
    assert store.change_history(model_id="other").task_vectors == {}


def test_change_history_read_again_shows_every_write_of_the_run_log_since(store):
    """A store may keep what it decoded between reads (the SQL stores do): it must still show a new
    run, a replaced verdict, a new verification and a new task vector at the next read."""
    first = store.add_change_surface_run(ChangeSurfaceRun(None, "refund a card", "2024-01-01T00:00:00Z"))
    store.add_feedback(Feedback(first, "payments", "confirmed", "2024-01-01T00:00:00Z"))
    before = store.change_history(model_id="m")
    assert store.change_history(model_id="m") == before  # nothing written: the same answer
    second = store.add_change_surface_run(ChangeSurfaceRun(None, "ship a parcel", "2024-01-02T00:00:00Z"))
    assert [r.id for r in store.change_history(model_id="m").runs] == [second, first]
    store.add_feedback(Feedback(first, "payments", "rejected", "2024-01-03T00:00:00Z"))  # replaces the verdict
    assert [f.outcome for f in store.change_history(model_id="m").feedback] == ["rejected"]
    store.add_verification(Verification(None, second, "shop", "abc", "2024-01-04T00:00:00Z", recall=1.0))
    assert [v.run_id for v in store.change_history(model_id="m").verifications] == [second]
    store.put_embeddings([Embedding("run", f"run:{second}", "task", "h2", "m", (0.0, 1.0))])
    assert store.change_history(model_id="m").task_vectors == {f"run:{second}": (0.0, 1.0)}
    store.put_embeddings([Embedding("run", f"run:{second}", "task", "h3", "m", (1.0, 0.0))])  # another text
    assert store.change_history(model_id="m").task_vectors == {f"run:{second}": (1.0, 0.0)}
    assert [r.id for r in store.change_history(limit=1, model_id="m").runs] == [second]


def test_a_second_connection_sees_the_fingerprint_move(tmp_path, samples):
    path = str(tmp_path / "shared.db")
    writer, reader = SqliteKnowledgeStore(path), SqliteKnowledgeStore(path, read_only=True)
    try:
        first = reader.snapshot_fingerprint()
        samples.replace(writer, "shop", [samples.service_facts("shop", "orders")])
        assert reader.snapshot_fingerprint() != first
        assert [s.name for s in reader.load_model().services] == ["orders"]
    finally:
        writer.close()
        reader.close()


def test_past_task_vectors_are_history_not_facts_to_search(store):
    store.put_embeddings([Embedding("service", "svc:a", "name", "h", "m", (1.0, 0.0)),
                          Embedding("run", "run:1", "task", "h", "m", (1.0, 0.0))])
    assert [h.owner_id for h in store.nearest_embeddings("m", (1.0, 0.0), 10)] == ["svc:a"]
    store.put_embeddings([Embedding("run", "run:2", "task", "h", "m", (0.9, 0.1))])  # the matrix stays
    assert [h.owner_id for h in store.nearest_embeddings("m", (1.0, 0.0), 10)] == ["svc:a"]
    store.put_embeddings([Embedding("api", "api:b", "name", "h", "m", (0.9, 0.1))])
    assert [h.owner_id for h in store.nearest_embeddings("m", (1.0, 0.0), 10)] == ["svc:a", "api:b"]
    assert set(store.change_history(model_id="m").task_vectors) == {"run:1", "run:2"}
