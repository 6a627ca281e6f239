"""The real fastembed path with the model shipped in packages (no network, no hub)."""

from __future__ import annotations

import pytest

from orbitkb.domain.retrieval import cosine

fastembed_adapter = pytest.importorskip("orbitkb.fastembed")


def test_packaged_model_loads_offline_and_separates_meanings(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    e = fastembed_adapter.load_embedder()
    assert e.model_id == "orbitkb/all-MiniLM-L6-v2-int8" and e.dim == 384
    a, b, c = e.embed(["charge a credit card payment", "take money from the customer's card",
                       "ship the parcel to the warehouse"])
    assert cosine(a, b) > 0.5 > cosine(a, c) + 0.2
    assert e.embed([]) == []
