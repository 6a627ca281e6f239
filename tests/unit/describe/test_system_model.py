"""SystemModel: indexes built once per snapshot, derived values built once (also when one needs
another), labels that keep same-named services of two repositories apart, and keyword answers
shared by every request of a snapshot (bounded, least recently used first out)."""

from __future__ import annotations

from collections import Counter

from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.model import Repository, Service, ServiceFacts
from orbitkb.domain.ports import SearchDocument, SearchQuery
from orbitkb.domain.retrieval import HybridRetriever, KeywordAnswers
from orbitkb.domain.runs import SearchHit
from orbitkb.domain.system_model import SystemModel


def _store() -> InMemoryKnowledgeStore:
    store = InMemoryKnowledgeStore()
    for repo in ("harbour", "fleet"):
        facts = [ServiceFacts(Service(f"svc:{repo}:{n}", n, repo, n, "python")) for n in ("pilots", f"{repo}-desk")]
        docs = [SearchDocument("service", f.service.id, f.service.id, f.service.name, f.service.name,
                               f.service.name, "", "") for f in facts]
        store.replace_repository_facts(Repository(repo, f"/src/{repo}"), facts, [], [], [], docs)
    return store


def test_labels_keep_same_named_services_of_two_repositories_apart():
    model = _store().load_model()
    assert sorted(model.labels.values()) == ["fleet-desk", "fleet/pilots", "harbour-desk", "harbour/pilots"]
    assert model.catalog.lookup("fleet/pilots").repository == "fleet"
    assert [s.name for s in model.list_services("fleet")] == ["fleet-desk", "pilots"]


def test_a_derived_value_is_built_once_even_when_it_needs_another():
    model = SystemModel("fp")
    built: Counter[str] = Counter()

    def inner() -> int:
        built["inner"] += 1
        return 2

    def outer() -> int:
        built["outer"] += 1
        return model.derived("inner", inner) * 10

    assert model.derived("outer", outer) == 20 and model.derived("outer", outer) == 20
    assert built == Counter({"outer": 1, "inner": 1})


def test_keyword_answers_are_bounded_and_drop_the_least_recently_used():
    answers = KeywordAnswers(size=2)
    a, b, c = (SearchQuery((w,), 5) for w in "abc")
    hit = SearchHit("service", "x", "x", 1.0, "name_text")
    answers.put(a, [hit])
    answers.put(b, [])
    assert answers.get(a) == (hit,)  # a is now the most recently used
    answers.put(c, [])
    assert answers.get(b) is None and answers.get(a) == (hit,) and answers.get(c) == ()


class _CountingSearch(InMemoryKnowledgeStore):
    def __init__(self) -> None:
        super().__init__()
        self.searches = 0

    def search_many(self, queries):  # type: ignore[no-untyped-def]
        self.searches += 1
        return super().search_many(queries)


def test_requests_on_one_snapshot_share_keyword_answers_and_a_new_snapshot_asks_again():
    store = _CountingSearch()
    for repo, name in (("harbour", "pilots"), ("fleet", "tugs")):
        f = [ServiceFacts(Service(f"svc:{name}", name, repo, name, "python"))]
        store.replace_repository_facts(Repository(repo, "/src"), f, [], [], [], [
            SearchDocument("service", f"svc:{name}", f"svc:{name}", name, name, name, "", "")])
    model = store.load_model()
    queries = [SearchQuery(("pilots",), 10), SearchQuery(("tugs",), 10)]
    for _ in range(3):
        retriever = HybridRetriever(store, facts=model)
        retriever.prefetch(queries)
        assert [h.service for h in retriever.keyword(["pilots"], 10)] == ["pilots"]
    assert store.searches == 1
    HybridRetriever(store, facts=store.load_model()).prefetch(queries)  # same fingerprint, new object
    assert store.searches == 2
    HybridRetriever(store).prefetch(queries)  # no model: one request's memory only
    assert store.searches == 3
