"""Enrichment writes on a real file: proposed calls survive reopening, and an upsert that fails
between its UPDATE and its INSERT rolls both back."""

from __future__ import annotations

import attrs
import pytest

from orbitkb.domain.model import CallKind, Provenance, ServiceCall
from orbitkb.sql import calls
from orbitkb.sqlite import SqliteKnowledgeStore


def proposed(from_sid: str, target: str) -> ServiceCall:
    return ServiceCall(
        f"call:llm:{target}", from_sid, CallKind.HTTP, target, confidence=0.4, provenance=Provenance.LLM
    )


def test_proposed_calls_and_descriptions_survive_reopening(tmp_path, make_snapshot):
    path = str(tmp_path / "kb.db")
    with SqliteKnowledgeStore(path) as store:
        store.replace_repository_facts(**make_snapshot("shop", 3))
        sid = store.list_services()[0].id
        store.update_calls([proposed(sid, "ledger")])
        api = store.list_apis(sid)[0]
        store.update_apis([attrs.evolve(api, description="Lists things.")])
    with SqliteKnowledgeStore(path) as store:
        assert store.list_calls_to_target(["ledger"]) == [proposed(sid, "ledger")]
        assert store.list_apis(sid)[0].description == "Lists things."
        assert len(store.list_calls()) == 4


def test_a_failure_after_the_rewrite_rolls_the_rewrite_back(tmp_path, monkeypatch, make_snapshot):
    with SqliteKnowledgeStore(str(tmp_path / "kb.db")) as store:
        store.replace_repository_facts(**make_snapshot("shop", 2))
        before = store.list_calls()
        rewrite = attrs.evolve(before[0], reason="rewritten")

        def boom(*_args: object) -> None:
            raise RuntimeError("disk full, say")

        monkeypatch.setattr(calls, "insert_many", boom)
        with pytest.raises(RuntimeError):
            store.update_calls([rewrite, proposed(before[0].from_service_id, "ledger")])
        assert store.list_calls() == before
        monkeypatch.undo()
        store.update_calls([rewrite])
        assert store.list_calls()[0].reason == "rewritten"
