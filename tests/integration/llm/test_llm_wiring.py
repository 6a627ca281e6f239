"""The LLM layer wired through the composition root: enrichment runs as an index hook, is cached
(an unchanged repository costs zero calls), and find_change_surface classifies with the backend."""

from __future__ import annotations

from pathlib import Path

from dependency_injector import providers

from orbitkb.bootstrap import Settings, build_application
from orbitkb.bootstrap.factories import BackendChoice
from orbitkb.domain.fakes import FakeLLMBackend
from orbitkb.domain.model import Provenance
from orbitkb.domain.usecases.indexing import IndexRequest

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "shopfront"


def app_with(backend: FakeLLMBackend, db: Path):
    app = build_application(Settings(db_path=str(db), backend="offline", embedder="off", jobs=2))
    app.adapters.backend.override(providers.Object(BackendChoice(backend, None)))
    return app


def test_enrichment_hook_then_cache_then_llm_change_surface(tmp_path: Path) -> None:
    backend = FakeLLMBackend()
    app = app_with(backend, tmp_path / "kb.db")
    first = app.use_cases.index_repository()(IndexRequest(str(EXAMPLE), "shopfront"))
    llm = next(h for h in first.hooks if h.name == "llm")
    assert llm.ok and llm.llm_calls == len(backend.calls) > 10
    assert first.run.llm_calls == llm.llm_calls and first.run.backend == "fake"
    services = app.adapters.store().list_services()
    assert all(s.desc_provenance == Provenance.LLM for s in services)
    prompt = backend.calls[0].prompt
    assert "data" in prompt.lower()  # repository text is fenced as data

    calls_before = len(backend.calls)
    second = app.use_cases.index_repository()(IndexRequest(str(EXAMPLE), "shopfront"))
    assert len(backend.calls) == calls_before, "an unchanged repository makes zero LLM calls"
    assert second.run.llm_calls == 0

    surface = app.use_cases.find_change_surface()("Refund a card payment when an order is cancelled")
    assert surface.classified_by == "llm:fake"
    names = {f.service for f in surface.primary + surface.secondary + surface.no_change_hint}
    assert names <= {s.name for s in services}
