"""Running one phase of units: cache lookup, bounded parallel generation, outcome bookkeeping.

Workers only talk to the LLM backend; every store access (cache reads and writes) happens on
the calling thread, so a store that is not thread-safe is fine.

A plainly broken backend is not paid for unit after unit: ``ALIKE_FAILURES`` units in a row
failing with the same error stop the run (the rest are skipped, the error is the reason). An
interrupt (Ctrl-C, or SIGTERM turned into one) cancels the queued units at once, asks a
``Cancellable`` backend to stop the calls in flight, and re-raises: every answer received so far
is already in the cache, so the next run pays only for the rest.
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
from orbitkb.domain.errors import LlmCancelled, LlmUnavailable
from orbitkb.domain.ids import content_hash
from orbitkb.domain.ports import Cancellable, KnowledgeStore, LLMBackend
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


#: Units failing in a row with the same error before the run stops sending.
ALIKE_FAILURES = 3
#: Distinct failure causes kept for the report (the first ones seen).
MAX_CAUSES = 3


@define
class RunState:
    tallies: dict[str, Tally] = field(factory=dict)
    outcomes: list[UnitOutcome] = field(factory=list)
    aborted: str | None = None
    #: The first distinct errors units failed with, in the order they happened.
    causes: list[str] = field(factory=list)
    #: The last backend failure and how many units in a row failed with it (workers update it).
    streak: tuple[str, int] = ("", 0)
    _lock: threading.Lock = field(factory=threading.Lock)

    def tally(self, service_id: str) -> Tally:
        return self.tallies.setdefault(service_id, Tally())

    def cause(self, error: str) -> None:
        if error not in self.causes and len(self.causes) < MAX_CAUSES:
            self.causes.append(error)

    def answered(self, result: Attempted) -> bool:
        """Called by a worker as soon as a unit is done; True when the run must stop: the
        backend failed ``ALIKE_FAILURES`` units in a row with the same error. Answers that break
        the schema depend on the unit, so they neither count nor break a streak."""
        with self._lock:
            if result.answer is not None:
                self.streak = ("", 0)
            elif result.backend_failed and result.error:
                last, count = self.streak
                self.streak = (result.error, count + 1 if result.error == last else 1)
                if self.streak[1] >= ALIKE_FAILURES and not self.aborted:
                    self.aborted = f"stopped after {ALIKE_FAILURES} units failed alike: {result.error}"
            return self.aborted is not None


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
    stage: str = "llm",
) -> dict[str, Mapping[str, Any]]:
    """Answers by unit key for every unit that got one (from the cache or the LLM). ``stage`` names
    the phase for ``progress`` (one stage per phase, whatever the kinds of its units)."""
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
        if stop.is_set():
            return None
        result = generate_checked(backend, unit.prompt, unit.schema)
        if state.answered(result):  # decided here, not when the calling thread gets to it
            stop.set()
        return result

    done = 0
    pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="orbitkb-llm")
    futures = {pool.submit(attempt, unit): (unit, key) for unit, key in pending}
    try:
        for future in as_completed(futures):
            unit, key = futures[future]
            done += 1
            result = _collect(future, unit, state, stop)
            if result is not None and result.answer is not None:
                store.put_llm_cache(key, json.dumps({"answer": result.answer}, sort_keys=True))
                answers[unit.key] = result.answer
            if progress is not None:
                progress(stage, done, len(pending))
    except BaseException:  # Ctrl-C / SIGTERM: no new unit starts, the ones running are stopped
        stop.set()
        for future in futures:
            future.cancel()
        if isinstance(backend, Cancellable):
            backend.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return answers


def _collect(future: Any, unit: UnitSpec, state: RunState, stop: threading.Event) -> Attempted | None:
    try:
        result: Attempted | None = future.result()
    except LlmCancelled:
        stop.set()
        state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "skipped", "interrupted"))
        return None
    except LlmUnavailable as exc:
        stop.set()
        state.aborted = state.aborted or f"{exc}" + (f" ({exc.hint})" if exc.hint else "")
        state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "skipped", state.aborted))
        return None
    except Exception as exc:  # noqa: BLE001 - one broken unit must not lose the others' work
        state.tally(unit.service_id).failed += 1
        error = f"{type(exc).__name__}: {exc}"
        state.outcomes.append(UnitOutcome(unit.key, unit.kind, unit.service_id, "failed", error))
        state.cause(error)
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
        state.cause(result.error or "unknown error")
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
