"""Running one phase of units: cache lookup, bounded parallel generation, outcome bookkeeping.

Workers only talk to the LLM backend; every store access (cache reads and writes) happens on
the calling thread, so a store that is not thread-safe is fine.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from attrs import define, field

from orbitkb.domain.enrichment.harness import Attempted, check, generate_checked
from orbitkb.domain.enrichment.results import UnitOutcome
from orbitkb.domain.enrichment.units import UnitSpec
from orbitkb.domain.errors import LlmUnavailable
from orbitkb.domain.ids import content_hash
from orbitkb.domain.ports import KnowledgeStore, LLMBackend
from orbitkb.domain.runs import LlmUsage


@define
class Tally:
    """Per-service counters, mutated only on the calling thread."""

    llm_calls: int = 0
    prompt_bytes: int = 0
    generated: int = 0
    cached: int = 0
    failed: int = 0
    usage: LlmUsage = field(factory=LlmUsage)


@define
class RunState:
    tallies: dict[str, Tally] = field(factory=dict)
    outcomes: list[UnitOutcome] = field(factory=list)
    aborted: str | None = None

    def tally(self, service_id: str) -> Tally:
        return self.tallies.setdefault(service_id, Tally())


def cache_key(backend: LLMBackend, unit: UnitSpec) -> str:
    """Hash of everything the answer depends on: prompt (excerpt, facts, version), schema, model."""
    material = "\x1f".join(
        [unit.kind, backend.name, backend.model or "", unit.prompt, json.dumps(unit.schema, sort_keys=True)]
    )
    return "enrich:" + content_hash(material)


def run_phase(
    units: Sequence[UnitSpec],
    store: KnowledgeStore,
    backend: LLMBackend,
    jobs: int,
    state: RunState,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Mapping[str, Any]]:
    """Answers by unit key for every unit that got one (from the cache or the LLM)."""
    answers: dict[str, Mapping[str, Any]] = {}
    pending: list[tuple[UnitSpec, str]] = []
    for unit in units:
        key = cache_key(backend, unit)
        cached = _cached(store, key, unit)
        if cached is not None:
            answers[unit.key] = cached
            state.tally(unit.service_id).cached += 1
            state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "cached"))
        elif state.aborted:
            state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "skipped", state.aborted))
        else:
            pending.append((unit, key))
    if not pending:
        return answers
    stop = threading.Event()

    def attempt(unit: UnitSpec) -> Attempted | None:
        return None if stop.is_set() else generate_checked(backend, unit.prompt, unit.schema)

    done = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="orbitkb-llm") as pool:
        futures = {pool.submit(attempt, unit): (unit, key) for unit, key in pending}
        for future in as_completed(futures):
            unit, key = futures[future]
            done += 1
            result = _collect(future, unit, state, stop)
            if result is not None and result.answer is not None:
                store.put_llm_cache(key, json.dumps({"answer": result.answer}, sort_keys=True))
                answers[unit.key] = result.answer
            if progress is not None:
                progress(unit.kind, done, len(pending))
    return answers


def _collect(future: Any, unit: UnitSpec, state: RunState, stop: threading.Event) -> Attempted | None:
    try:
        result: Attempted | None = future.result()
    except LlmUnavailable as exc:
        stop.set()
        state.aborted = state.aborted or f"{exc}" + (f" ({exc.hint})" if exc.hint else "")
        state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "skipped", state.aborted))
        return None
    except Exception as exc:  # noqa: BLE001 - one broken unit must not lose the others' work
        state.tally(unit.service_id).failed += 1
        state.outcomes.append(
            UnitOutcome(unit.key, unit.kind, unit.service_id, "failed", f"{type(exc).__name__}: {exc}")
        )
        return None
    if result is None:
        state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "skipped", state.aborted))
        return None
    tally = state.tally(unit.service_id)
    tally.llm_calls += result.calls
    tally.prompt_bytes += result.prompt_bytes
    tally.usage = tally.usage + result.usage
    if result.answer is None:
        tally.failed += 1
        state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "failed", result.error))
    else:
        tally.generated += 1
        state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "generated"))
    return result


def _cached(store: KnowledgeStore, key: str, unit: UnitSpec) -> Mapping[str, Any] | None:
    raw = store.get_llm_cache(key)
    if raw is None:
        return None
    try:
        answer = json.loads(raw)["answer"]
    except (ValueError, KeyError, TypeError):
        return None
    valid, _ = check(answer, unit.schema)
    return valid
