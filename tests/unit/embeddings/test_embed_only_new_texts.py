"""EmbedKnowledge embeds each new text once, in batches, and reuses a vector already stored for
the same text (same model): re-indexing costs the embedder only what really changed."""

from __future__ import annotations

import pytest
from attrs import evolve

from orbitkb.domain.fakes import FakeEmbedder, InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, Repository, Service, ServiceFacts
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases import embeddings
from orbitkb.domain.usecases.embeddings import BATCH, EmbedKnowledge


def system(n_services: int, health_doc: str = "Liveness probe.") -> list[ServiceFacts]:
    """Every service has the same health endpoint (same text) and one API of its own."""
    out = []
    for i in range(n_services):
        sid = service_id("fleet", f"svc{i:03d}")
        apis = (Api(make_id("api", sid, "GET", "/health"), sid, "GET", "/health", "health", "app.py", 1, 2,
                    doc=health_doc),
                Api(make_id("api", sid, "POST", f"/things{i}"), sid, "POST", f"/things{i}", f"make_thing_{i}",
                    "app.py", 5, 9, doc=f"Creates thing number {i}."))
        out.append(ServiceFacts(Service(sid, f"svc{i:03d}", "fleet", f"svc{i:03d}", "python"), apis=apis))
    return out


def stored(facts: list[ServiceFacts]) -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository("fleet", "/src/fleet", "none"), facts, [], [], [], documents_for(facts))
    return store


def embedded(embedder: FakeEmbedder) -> list[str]:
    return [t for call in embedder.calls for t in call]


def test_identical_texts_are_embedded_once_and_every_owner_gets_its_vector(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embeddings, "BATCH", 64)
    facts = system(150)
    store, embedder = stored(facts), FakeEmbedder(dim=16)
    outcome = EmbedKnowledge(store, embedder)(None, facts)
    texts = embedded(embedder)
    assert len(texts) == len(set(texts))  # no text twice
    assert all(len(call) <= 64 for call in embedder.calls) and len(embedder.calls) > 1
    vectors = store.list_embeddings(embedder.model_id)
    assert len({e.owner_id for e in vectors if e.owner_kind == "api"}) == 300  # every API has its vectors
    assert len(texts) < len(vectors)  # the 150 health checks share their texts
    health = {e.vector for e in vectors if e.owner_kind == "api" and e.field == "name"
              and e.owner_id in {make_id("api", f.service.id, "GET", "/health") for f in facts}}
    assert len(health) == 1  # one vector, given to every owner of that text
    assert "new texts" in outcome.message


def test_a_reindex_embeds_only_what_changed_and_reuses_known_texts() -> None:
    facts = system(20)
    store, embedder = stored(facts), FakeEmbedder(dim=16)
    hook = EmbedKnowledge(store, embedder)
    hook(None, facts)
    embedder.calls.clear()
    hook(None, facts)
    assert embedder.calls == []  # nothing changed: the embedder is not called at all
    changed = [evolve(facts[0], service=evolve(facts[0].service, readme="Now also ships parcels."))] + facts[1:]
    hook(None, changed)
    assert len(embedded(embedder)) == 1
    embedder.calls.clear()
    # a new service whose texts all exist already (the health check): only its own API is new
    sid = service_id("fleet", "svc-new")
    extra = ServiceFacts(Service(sid, "svc-new", "fleet", "svc-new", "python"),
                         apis=(Api(make_id("api", sid, "GET", "/health"), sid, "GET", "/health", "health", "app.py",
                                   1, 2, doc="Liveness probe."),))
    store2 = stored([*facts, extra])
    for e in store.list_embeddings(embedder.model_id):
        store2.put_embeddings([e])
    EmbedKnowledge(store2, embedder)(None, [extra])
    assert not any("/health" in t for t in embedded(embedder))  # known texts: no embedder call
    health_id = make_id("api", sid, "GET", "/health")
    assert {e.field for e in store2.list_embeddings(embedder.model_id) if e.owner_id == health_id} == {"name", "text"}


def test_texts_go_to_the_embedder_shortest_first_so_batches_are_not_padded_to_a_long_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embeddings, "BATCH", 64)
    facts = system(60)
    long_doc = "Explains at length " + "how things are made and checked " * 12
    facts = [evolve(f, apis=(f.apis[0], evolve(f.apis[1], doc=long_doc + str(i) if i % 2 else "Short.")))
             for i, f in enumerate(facts)]
    store, embedder = stored(facts), FakeEmbedder(dim=16)
    EmbedKnowledge(store, embedder)(None, facts)
    lengths = [len(t) for t in embedded(embedder)]
    assert lengths == sorted(lengths) and len(embedder.calls) > 1


def test_the_embedder_gets_hundreds_of_texts_a_call_to_batch_by_its_own_token_counts() -> None:
    facts = system(700)  # ~1,400 distinct new texts
    store, embedder = stored(facts), FakeEmbedder(dim=16)
    EmbedKnowledge(store, embedder)(None, facts)
    sizes = [len(call) for call in embedder.calls]
    assert sum(sizes) > 2 * BATCH and sizes[:-1] == [BATCH] * (len(sizes) - 1)
    assert BATCH >= 256 and len(sizes) <= 1 + sum(sizes) // 256  # few calls: the embedder sorts each by tokens
