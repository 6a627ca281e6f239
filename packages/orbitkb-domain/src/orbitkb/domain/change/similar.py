"""similar_past_tasks: earlier runs whose task text is closest to this one, each with an honest
outcome — a git verification, feedback counts, or "no feedback yet". Cosine over run embeddings
when an embedder is installed, else word overlap (Jaccard) so it is never silently empty."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from orbitkb.domain.change.views import SimilarTask
from orbitkb.domain.ports import Embedder
from orbitkb.domain.retrieval import cosine
from orbitkb.domain.runs import ChangeHistory, ChangeSurfaceRun
from orbitkb.domain.text import words

MAX_SIMILAR = 3
MIN_SIMILARITY = 0.3
#: distinct past task texts whose words are kept (the run log keeps at most 500 runs)
WORD_SETS_KEPT = 2048


@lru_cache(maxsize=WORD_SETS_KEPT)
def word_set(text: str) -> frozenset[str]:
    """The words of a task text, split once per distinct text: every answer compares the task
    with every past run, and the same past runs come back on every call."""
    return frozenset(words(text))


def _outcome(history: ChangeHistory, run_id: int | None) -> str:
    verifications = history.verifications_of(run_id)
    if verifications:
        v = verifications[-1]
        p = "n/a" if v.precision is None else f"{v.precision:.2f}"
        r = "n/a" if v.recall is None else f"{v.recall:.2f}"
        return f"verified precision={p} recall={r}"
    fb = [f for f in history.feedback if f.run_id == run_id]
    if fb:
        ok = sum(1 for f in fb if f.outcome == "confirmed")
        return f"feedback: {ok} confirmed, {len(fb) - ok} rejected"
    return "no feedback yet"


#: The cosines of a query vector to some past tasks' vectors (``EmbeddingStore.similarities``
#: with the embedder's model and the owner kind ``run`` bound).
Similarities = Callable[[Sequence[float], Sequence[str]], Mapping[str, float]]


def similar_past_tasks(history: ChangeHistory, task: str, embedder: Embedder | None,
                       task_vector: tuple[float, ...] | list[float] | None = None,
                       similarities: Similarities | None = None) -> list[SimilarTask]:
    """``history`` read with the embedder's model: with the task's vector (each past task's cosine
    to it, ``task_similarities``), or with its runs' task vectors; ``task_vector`` is the
    task's own vector when the caller already has it; ``similarities`` compares it with the past
    tasks in the store (one matrix product there), else each cosine is computed here."""
    runs = history.runs
    if not runs:
        return []
    scored: list[tuple[float, ChangeSurfaceRun]] = []
    if embedder is not None and history.task_similarities is not None:  # read with the task's vector
        found = history.task_similarities
        scored = [(found[k], r) for k, r in zip(history.run_keys(), runs, strict=True) if k in found]
    elif embedder is not None:
        vectors = history.task_vectors
        if vectors:
            q = task_vector if task_vector is not None else embedder.embed([task])[0]
            keys = [f"run:{r.id}" for r in runs]
            sims = (similarities(q, [k for k in keys if k in vectors]) if similarities is not None
                    else {k: cosine(q, vectors[k]) for k in keys if k in vectors})
            scored = [(sims[k], r) for k, r in zip(keys, runs, strict=True) if k in sims]
    if not scored:
        mine = word_set(task)
        for r in runs:
            theirs = word_set(r.task)
            if mine and theirs:
                scored.append((len(mine & theirs) / len(mine | theirs), r))
    scored = [s for s in scored if s[0] >= MIN_SIMILARITY and s[1].task.strip() != task.strip()]
    scored.sort(key=lambda s: (-s[0], -(s[1].id or 0)))
    return [SimilarTask(r.id, r.task, round(sim, 2), tuple(sorted(f.service for f in r.findings if f.tier == "primary")),
                        _outcome(history, r.id)) for sim, r in scored[:MAX_SIMILAR]]
