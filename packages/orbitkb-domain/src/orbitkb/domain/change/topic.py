"""Whether a task reads like software work at all, to the embedder: the off-topic rule that
only embeddings can afford (a strict share of words matched) is kept for tasks that do not (a
cake, a holiday), so that a terse real commit message is not abstained on."""

from __future__ import annotations

from orbitkb.domain.ports import Embedder
from orbitkb.domain.retrieval import cosine

#: What software work reads like, for the packaged embedder: a task far from all of them (a
#: cake, a holiday) gets the strict off-topic rule; a terse commit message ("Migrate to
#: ui-router") does not, though its words may match little that the index names.
SOFTWARE_WORK = ("fix a bug in the code", "add a new feature to the service", "refactor the source code",
                 "update a dependency or library version", "change the build, deployment or configuration",
                 "add or fix tests", "change the API endpoint or request handling",
                 "change the database schema or query", "improve logging, metrics or error handling",
                 "update the user interface page")
#: Cosine to the closest of them from which a task reads as software work (packaged MiniLM: the
#: off-topic tasks of tests/integration/change_quality reach at most 0.19, two in three real commit
#: messages of the real-history tune half 0.22 or more).
SOFTWARE_TOPIC = 0.22
_WORK_VECTORS: dict[str, list[list[float]]] = {}
_LAST: dict[tuple[str, str], bool] = {}


def about_software(embedder: Embedder, task: str) -> bool:
    """True when the task reads like software work to the embedder."""
    key = (embedder.model_id, task)
    if key not in _LAST:  # one request may ask twice (the off-topic rule, the lone service)
        anchors = _WORK_VECTORS.get(embedder.model_id)
        if anchors is None:
            anchors = _WORK_VECTORS[embedder.model_id] = [list(v) for v in embedder.embed(list(SOFTWARE_WORK))]
        vector = embedder.embed([task])[0]
        _LAST.clear()
        _LAST[key] = max(cosine(vector, a) for a in anchors) >= SOFTWARE_TOPIC
    return _LAST[key]
