"""An API's name is a bag of identifiers: EmbedKnowledge embeds each distinct word once and gives the
name the unit-length mean of its words' vectors; prose and the names of services, channels and
entities are still embedded whole."""

from __future__ import annotations

import math

import pytest
from attrs import evolve

from orbitkb.domain.fakes import FakeEmbedder, InMemoryKnowledgeStore
from orbitkb.domain.ids import make_id, service_id
from orbitkb.domain.model import Api, PersistenceEntity, Repository, Service, ServiceFacts
from orbitkb.domain.retrieval import cosine, text_hash
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.embeddings import EmbedKnowledge, telling_words, unit_mean


def shop() -> list[ServiceFacts]:
    """Two services whose APIs share most of their words (orders, invoices, id)."""
    out = []
    for name, routes in (("billing", (("POST", "/invoices", "issue_invoice", "Issues an invoice for an order."),
                                      ("GET", "/invoices/{id}", "read_invoice", ""))),
                         ("ordering", (("POST", "/orders", "place_order", "Places a customer's order."),
                                       ("DELETE", "/orders/{id}", "cancel_order", ""),
                                       ("GET", "/orders/{id}/invoices", "order_invoices", "")))):
        sid = service_id("shop", name)
        apis = tuple(Api(make_id("api", sid, m, p), sid, m, p, h, "app.py", i, i + 1, doc=doc)
                     for i, (m, p, h, doc) in enumerate(routes))
        entities = (PersistenceEntity(make_id("entity", sid, name), sid, f"{name}_records", "sql_table"),)
        out.append(ServiceFacts(Service(sid, name, "shop", name, "python"), apis=apis, entities=entities))
    return out


def indexed(facts: list[ServiceFacts], embedder: FakeEmbedder) -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository("shop", "/src/shop", "none"), facts, [], [], [], documents_for(facts))
    EmbedKnowledge(store, embedder)(None, facts)
    return store


def sent(embedder: FakeEmbedder) -> list[str]:
    return [t for call in embedder.calls for t in call]


def test_api_names_are_embedded_word_by_word_each_word_once() -> None:
    embedder = FakeEmbedder(dim=32)
    indexed(shop(), embedder)
    texts = sent(embedder)
    assert len(texts) == len(set(texts))
    for word in ("invoices", "orders", "cancel", "issue"):
        assert word in texts  # a word of API names, sent alone
    assert not any(t.startswith(("post ", "get ", "delete ")) for t in texts)  # never a whole API name
    assert not {"post", "get", "delete", "api"} & set(texts)  # words of every route say nothing


def test_an_api_name_vector_is_the_unit_mean_of_its_words() -> None:
    embedder = FakeEmbedder(dim=32)
    store = indexed(shop(), embedder)
    sid = service_id("shop", "ordering")
    cancel = make_id("api", sid, "DELETE", "/orders/{id}")
    (vector,) = [e.vector for e in store.list_embeddings(embedder.model_id) if e.owner_id == cancel]
    name = next(d for d in documents_for(shop()) if d.ref_id == cancel)
    words = [w for w in dict.fromkeys(f"{name.name_text} {name.keywords}".split()) if w != "delete"]
    assert words == ["orders", "id", "cancel", "order"]
    expected = unit_mean(FakeEmbedder(dim=32).embed(words))
    assert cosine(vector, expected) == pytest.approx(1.0, abs=1e-6)
    assert math.isclose(math.fsum(x * x for x in vector), 1.0, rel_tol=1e-6)


def test_prose_and_the_names_of_services_and_entities_are_embedded_whole() -> None:
    embedder = FakeEmbedder(dim=32)
    indexed(shop(), embedder)
    texts = sent(embedder)
    assert "Issues an invoice for an order." in texts and "Places a customer's order." in texts
    assert any(t.startswith("billing") for t in texts)  # the service's name and keywords, one text
    assert any(t.startswith("ordering records") for t in texts)  # the entity's name, one text


def test_nothing_changed_embeds_nothing_and_one_new_api_sends_only_its_new_words() -> None:
    embedder = FakeEmbedder(dim=32)
    facts = shop()
    store = indexed(facts, embedder)
    embedder.calls.clear()
    EmbedKnowledge(store, embedder)(None, facts)
    assert embedder.calls == []
    sid = service_id("shop", "billing")
    extra = Api(make_id("api", sid, "PUT", "/invoices/{id}/refund"), sid, "PUT", "/invoices/{id}/refund",
                "refund_invoice", "app.py", 9, 10)
    grown = [ServiceFacts(facts[0].service, apis=(*facts[0].apis, extra), entities=facts[0].entities), facts[1]]
    store.replace_repository_facts(Repository("shop", "/src/shop", "none"), grown, [], [], [], documents_for(grown))
    EmbedKnowledge(store, embedder)(None, grown)
    # the new API's words only (word vectors are not kept between runs: a few words per change)
    assert sorted(sent(embedder)) == ["id", "invoice", "invoices", "refund"]


def test_an_api_name_embedded_whole_by_an_older_version_is_composed_once() -> None:
    embedder = FakeEmbedder(dim=32)
    facts = shop()
    store = indexed(facts, embedder)
    apis = {a.id for f in facts for a in f.apis}
    old = [evolve(e, content_hash=text_hash(embedder.model_id, "whole name")) for e in
           store.list_embeddings(embedder.model_id) if e.owner_id in apis and e.field == "name"]
    store.put_embeddings(old)
    embedder.calls.clear()
    outcome = EmbedKnowledge(store, embedder)(None, facts)
    assert outcome.message.startswith(f"{len(old)} embedded")
    assert sent(embedder) and all(" " not in t for t in sent(embedder))  # words again, never a whole name


@pytest.mark.parametrize(("name", "telling"), [
    ("post api v2 orders orders handler create", ["orders", "handler", "create"]),
    ("get 1 invoices invoice id", ["invoices", "invoice", "id"]),
    ("rpc shop billing v1 billing service charge", ["shop", "billing", "service", "charge"]),
    ("get api v1", ["get", "api", "v1"]),  # nothing else: every word kept
    ("", []),
])
def test_the_telling_words_of_an_api_name(name: str, telling: list[str]) -> None:
    assert telling_words(name) == telling


def test_unit_mean_of_one_vector_is_that_vector_and_of_opposites_is_zero_safe() -> None:
    assert unit_mean([(0.6, 0.8)]) == pytest.approx((0.6, 0.8))
    assert unit_mean([(1.0, 0.0), (-1.0, 0.0)]) == (0.0, 0.0)
    with pytest.raises(ValueError):
        unit_mean([(1.0, 0.0), (1.0,)])
