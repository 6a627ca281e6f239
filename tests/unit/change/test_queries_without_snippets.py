"""The change surface asks the search for snippets only where it reads them: the hits of a short
task word (is the word itself there, or only a longer word it begins?). Every other query of a
request leaves them uncut, and a query's answer is kept under the same key it is asked with."""

from __future__ import annotations

from orbitkb.domain.change.candidates import MIN_PREFIX_WORD, keyword_queries
from orbitkb.domain.fakes import InMemoryKnowledgeStore
from orbitkb.domain.model import Repository
from orbitkb.domain.ports import SearchDocument
from orbitkb.domain.retrieval import HybridRetriever


def test_only_the_queries_of_short_words_ask_for_snippets() -> None:
    queries = keyword_queries(["up", "invoices", "tax"], ["ledger", "up"])
    by_terms = {(q.terms, q.kinds): q.snippets for q in queries}
    assert by_terms[(("up",), None)] is True  # shorter than a prefix word: its snippets are read
    assert by_terms[(("tax",), None)] is True
    assert by_terms[(("invoice", "invoices"), None)] is False
    assert all(not q.snippets for q in queries if q.kinds is not None)  # technologies, source, history
    assert all(q.snippets == (min(map(len, q.terms)) < MIN_PREFIX_WORD) for q in queries if q.kinds is None)


def test_a_prefetched_answer_without_snippets_is_the_one_asked_for_later() -> None:
    store = InMemoryKnowledgeStore()
    store.replace_repository_facts(Repository("shop", "/src/shop"), [], [], [], [], [
        SearchDocument("api", "a1", "svc:billing", "billing", "refund invoice", "refund invoice", "http post",
                       "moves the money of an invoice back"),
    ])
    retriever = HybridRetriever(store)
    retriever.prefetch(keyword_queries(["invoice"]))
    uncut = retriever.keyword(["invoice"], 80, snippets=False)
    cut = retriever.keyword(["invoice"], 80)
    assert [h.ref_id for h in uncut] == [h.ref_id for h in cut] == ["a1"]
    assert uncut[0].snippet is None and cut[0].snippet  # two keys: the search tool still gets its snippets
