"""Hybrid retrieval with a deterministic fake embedder, embeddings re-computed only for changed
text, and verification against a fake git history — everything a user's script can do with the
domain package alone."""

from __future__ import annotations

from attrs import evolve

from orbitkb.domain.fakes import FakeEmbedder, FakeGitReader
from orbitkb.domain.retrieval import rrf
from orbitkb.domain.usecases.change_surface import FindChangeSurface
from orbitkb.domain.usecases.embeddings import EmbedKnowledge
from orbitkb.domain.usecases.feedback import VerifyChangeSurface
from orbitkb.domain.usecases.search import Search

from .seed import facts, seeded_store


def test_rrf_fuses_rankings() -> None:
    scores = rrf([["a", "b", "c"], ["b", "c", "a"]])
    assert sorted(scores, key=lambda k: -scores[k]) == ["b", "a", "c"]
    assert abs(scores["b"] - (1 / 62 + 1 / 61)) < 1e-12


def test_embeddings_only_for_changed_text_then_hybrid_search() -> None:
    store = seeded_store()
    embedder = FakeEmbedder()
    hook = EmbedKnowledge(store, embedder)
    first = hook(None, facts())
    embedded = sum(len(c) for c in embedder.calls)
    assert embedded > 10 and "embedded" in first.message
    embedder.calls.clear()
    hook(None, facts())
    assert embedder.calls == [], "unchanged text is never re-embedded"
    changed = facts()
    changed[0] = evolve(changed[0], service=evolve(changed[0].service, readme="Checkout now also sells gift cards."))
    hook(None, changed)
    assert 0 < sum(len(c) for c in embedder.calls) <= 2
    res = Search(store, embedder)("charging a customer card")
    assert res.mode == "hybrid" and res.hits[0].service == "payments"
    assert all(h.service and h.name for h in res.hits), "vector-only hits get their service and name"
    assert Search(store)("charging a customer card").mode == "keyword"


def test_change_surface_reports_hybrid_retrieval() -> None:
    store = seeded_store()
    embedder = FakeEmbedder()
    EmbedKnowledge(store, embedder)(None, facts())
    s = FindChangeSurface(store, embedder=embedder)("charge the customer's card")
    assert s.retrieval == "hybrid" and s.primary and s.primary[0].service == "payments"


def test_verify_against_git_history() -> None:
    store = seeded_store()
    run = FindChangeSurface(store)("Add Pix as a payment method in checkout")
    git = FakeGitReader({"c1": {"payments/app.py": "v1", "README.md": "x"},
                         "c2": {"payments/app.py": "v2", "README.md": "y", "ledger/app.py": "new"}})
    v = VerifyChangeSurface(store, git)(run.run_id, "shop", "c1", "c2", record_feedback=True)
    predicted = {f.service for f in run.primary + run.secondary}
    assert v.actual == ("ledger", "payments") and v.unowned_files == ("README.md",)
    assert set(v.true_positives) == predicted & {"ledger", "payments"}
    assert v.recall == round(len(v.true_positives) / 2, 4)
    assert {f.outcome for f in store.list_feedback("payments")} == {"confirmed"}
    assert v.id is not None and store.list_verifications(run.run_id)[0].precision == v.precision


def test_embedding_hook_reports_progress() -> None:
    seen: list[tuple[str, int, int]] = []
    hook = EmbedKnowledge(seeded_store(), FakeEmbedder()).with_progress(lambda *a: seen.append(a))
    hook(None, facts())
    assert seen and seen[0][0] == "embed" and seen[0][1] == 0 and seen[-1][2] > 0


def test_verifying_again_records_each_verdict_once() -> None:
    store = seeded_store()
    run = FindChangeSurface(store)("Add Pix as a payment method in checkout")
    git = FakeGitReader({"c1": {"payments/app.py": "v1", "ledger/app.py": "v1"},
                         "c2": {"payments/app.py": "v1", "ledger/app.py": "v2"}})
    verify = VerifyChangeSurface(store, git)
    for _ in range(3):
        verify(run.run_id, "shop", "c1", "c2", record_feedback=True)
    once = [(f.run_id, f.service, f.outcome) for f in store.list_feedback()]
    assert once and len(once) == len({(r, s) for r, s, _ in once}), once
    assert ("payments" in {s for _, s, _ in once}) == ("payments" in {f.service for f in run.primary + run.secondary})


def test_an_empty_diff_records_no_feedback() -> None:
    store = seeded_store()
    run = FindChangeSurface(store)("Add Pix as a payment method in checkout")
    git = FakeGitReader({"c1": {"payments/app.py": "v1"}}, head="c1")
    v = VerifyChangeSurface(store, git)(run.run_id, "shop", "c1", record_feedback=True)
    assert v.actual == () and v.false_positives  # everything predicted looks wrong ...
    assert store.list_feedback() == []  # ... but nothing changed, so nothing is learned
