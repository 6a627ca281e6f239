"""Contract: search — bm25 ranking with column weights, prefix and OR semantics, injection safety."""

from __future__ import annotations

import pytest

from orbitkb.domain.ports import SearchDocument


def doc(
    ref: str, name_text: str = "", keywords: str = "", text: str = "", kind: str = "api", service: str = "svc"
) -> SearchDocument:
    return SearchDocument(kind, ref, f"svc:{service}", service, ref, name_text, keywords, text)


CORPUS = [
    doc("in-name", name_text="refund payment", keywords="http post", text="moves money back"),
    doc("in-keywords", name_text="create order", keywords="refund handler", text="creates an order"),
    doc("in-text", name_text="list invoices", keywords="http get", text="shows every refund issued"),
    doc(
        "both-terms",
        name_text="refund invoice",
        keywords="billing",
        text="refund an invoice",
        service="billing",
    ),
    doc("filler-1", name_text="get stock", keywords="inventory", text="warehouse stock level"),
    doc(
        "filler-2",
        name_text="ship parcel",
        keywords="carrier",
        text="nearest warehouse pickup",
        kind="message",
    ),
    doc("accents", name_text="Zürich office", keywords="Café", text="opening hours", kind="entity"),
    doc(
        "camel",
        name_text="PaymentsController",
        keywords="create_order orders-service",
        text="",
        kind="component",
    ),
    # unrelated documents, so that "refund" is rare enough for bm25 to weigh it
    *(
        doc(f"other-{i}", name_text=f"health check {i}", keywords="ops", text="liveness probe")
        for i in range(8)
    ),
]


@pytest.fixture
def indexed(store, samples):
    store.replace_repository_facts(samples.repository("shop"), [], [], [], [], CORPUS)
    return store


def refs(hits):
    return [h.ref_id for h in hits]


def test_a_name_match_outranks_a_keyword_match_which_outranks_a_text_match(indexed):
    hits = [h for h in indexed.search(["refund"]) if h.ref_id in {"in-name", "in-keywords", "in-text"}]
    assert refs(hits) == ["in-name", "in-keywords", "in-text"]
    assert [h.field for h in hits] == ["name_text", "keywords", "text"]
    assert all(h.score > 0.1 for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_terms_are_or_ed_and_more_matched_terms_rank_higher(indexed):
    hits = indexed.search(["refund", "invoice"])
    assert refs(hits)[0] == "both-terms"
    assert {"in-name", "in-keywords", "in-text", "both-terms"} <= set(refs(hits))
    assert "filler-1" not in refs(hits)


def test_hits_carry_kind_service_name_and_a_snippet(indexed):
    (hit,) = indexed.search(["warehouse"], kinds=["message"])
    assert (hit.kind, hit.service, hit.name, hit.ref_id, hit.field) == (
        "message",
        "svc",
        "filler-2",
        "filler-2",
        "text",
    )
    assert hit.snippet and "warehouse" in hit.snippet.lower()


def test_prefix_case_and_accent_folding(indexed):
    assert set(refs(indexed.search(["pay"]))) == {"in-name", "camel"}
    assert "camel" in refs(indexed.search(["PAYMENTS"]))  # camelCase word kept whole, matched as a prefix
    assert refs(indexed.search(["zurich"])) == ["accents"]
    assert refs(indexed.search(["CAFE"])) == ["accents"]
    assert refs(indexed.search(["café"])) == ["accents"]


def test_multi_word_terms_are_phrases(indexed):
    assert set(refs(indexed.search(["create_order"]))) == {"camel", "in-keywords"}
    assert refs(indexed.search(["orders-service"])) == ["camel"]
    assert refs(indexed.search(["order create"])) == []  # words in the wrong order are not the phrase


@pytest.mark.parametrize("kinds", [["api"], ["api", "api"], ["entity", "message"], ["message", "entity", "component"],
                                   ["history"], ["history", "api"]])  # no history document: none of it
def test_a_kinds_filter_keeps_exactly_the_hits_of_those_kinds_in_order(indexed, kinds):
    terms = ["refund", "warehouse", "zurich", "payments"]
    every = indexed.search(terms, limit=50)
    assert indexed.search(terms, limit=50, kinds=kinds) == [h for h in every if h.kind in set(kinds)]


@pytest.mark.parametrize("kinds", [None, ("api", "message")])
def test_a_query_without_snippets_finds_the_same_hits_and_cuts_no_snippet(indexed, kinds):
    from attrs import evolve

    from orbitkb.domain.ports import SearchQuery

    terms = ("refund", "warehouse", "stock")
    cut, uncut = indexed.search_many([SearchQuery(terms, 30, kinds), SearchQuery(terms, 30, kinds, snippets=False)])
    assert cut and any(h.snippet for h in cut)
    assert uncut == [evolve(h, snippet=None) for h in cut]


def test_kinds_and_limit(indexed):
    assert {h.kind for h in indexed.search(["refund", "warehouse"], kinds=["message", "entity"])} == {
        "message"
    }
    assert indexed.search(["refund"], kinds=[]) == []
    assert len(indexed.search(["refund"], limit=2)) == 2
    assert indexed.search(["refund"], limit=0) == []


@pytest.mark.parametrize(
    "term, expected",
    [
        ("' OR '1'='1", []),
        ("NEAR(", ["filler-2"]),  # the word "near", as a prefix of "nearest"
        ('"', []),
        ("*", []),
        ("-x", []),
        ("refund) OR (stock", []),  # one phrase "refund or stock": nothing has it
        ("stock NOT", []),
        ("", []),
        ("   ", []),
        ("订单", []),
        ("\x00\ud800", []),
        ("a" * 5000, []),
    ],
)
def test_user_input_is_never_fts_syntax(indexed, term, expected):
    assert refs(indexed.search([term])) == expected


def test_hostile_terms_mixed_with_good_ones_still_find(indexed):
    assert "filler-1" in refs(indexed.search(['"', "stock*", "NEAR(", "' OR '1'='1"]))
    assert indexed.search([]) == []
    assert len(indexed.search([f"t{i}" for i in range(200)] + ["stock"])) <= 1


def test_search_documents_are_replaced_with_the_snapshot(store, samples):
    store.replace_repository_facts(samples.repository("shop"), [], [], [], [], CORPUS)
    store.replace_repository_facts(
        samples.repository("crm"), [], [], [], [], [doc("crm-refund", name_text="refund")]
    )
    store.replace_repository_facts(samples.repository("shop"), [], [], [], [], CORPUS[:1])
    assert sorted(refs(store.search(["refund"]))) == ["crm-refund", "in-name"]


def test_a_kind_without_documents_is_found_once_a_new_snapshot_has_some(indexed, samples):
    from orbitkb.domain.ports import SearchQuery

    asked = [SearchQuery(("refund",), 10, ("history",)), SearchQuery(("refund",), 10, ("history", "entity")),
             SearchQuery(("refund",), 10, ("api",))]
    first = indexed.search_many(asked)
    assert first[0] == first[1] == [] and first[2] and indexed.search(["refund"], kinds=["history"]) == []
    history = doc("orders#history", name_text="orders", text="fix refund rounding", kind="history", service="orders")
    indexed.replace_repository_facts(samples.repository("crm"), [], [], [], [], [history])
    again = indexed.search_many(asked)
    assert [h.ref_id for h in again[0]] == [h.ref_id for h in again[1]] == ["orders#history"]
    assert refs(again[2]) == refs(first[2])  # (scores move: one more document)
    indexed.remove_repository("crm")
    assert indexed.search_many(asked) == first
