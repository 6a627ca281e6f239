"""EmbedKnowledge (an index hook): per-field embeddings of every searchable document, keyed by
content hash so that only changed text is re-embedded; vectors of vanished facts are deleted."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import evolve, frozen

from orbitkb.domain.model import Repository, ServiceFacts
from orbitkb.domain.ports import Embedder, KnowledgeStore
from orbitkb.domain.retrieval import _owner_index, embedding_texts, text_hash
from orbitkb.domain.runs import Embedding
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.usecases.indexing import HookOutcome

BATCH = 64
#: What is embedded: the kinds an agent's task words point at. Calls and components are left to
#: keyword search — embedding them costs minutes on a 300-service system for no measured gain.
KINDS = frozenset({"service", "api", "message", "entity"})
MAX_CHARS = 600  # MiniLM reads ~256 tokens; longer text only costs time


@frozen
class EmbedKnowledge:
    store: KnowledgeStore
    embedder: Embedder
    progress: Callable[[str, int, int], None] | None = None

    def with_progress(self, progress: Callable[[str, int, int], None] | None) -> EmbedKnowledge:
        return evolve(self, progress=progress)

    def __call__(self, repo: Repository | None, facts: Sequence[ServiceFacts]) -> HookOutcome:
        model = self.embedder.model_id
        existing = {(e.owner_id, e.field): e.content_hash for e in self.store.list_embeddings(model)}
        todo: list[tuple[str, str, str, str, str]] = []  # kind, owner, field, hash, text
        for doc in documents_for(facts):
            if doc.kind not in KINDS:
                continue
            for field, text in embedding_texts(doc.name_text, doc.keywords, doc.text[:MAX_CHARS]).items():
                h = text_hash(model, text)
                if existing.get((doc.ref_id, field)) != h:
                    todo.append((doc.kind, doc.ref_id, field, h, text))
        for i in range(0, len(todo), BATCH):
            if self.progress is not None:
                self.progress("embed", i, len(todo))
            chunk = todo[i : i + BATCH]
            vectors = self.embedder.embed([t[4] for t in chunk])
            self.store.put_embeddings([Embedding(k, o, f, h, model, tuple(v)) for (k, o, f, h, _), v
                                       in zip(chunk, vectors)])
        alive = set(_owner_index(self.store))
        stale = sorted({o for (o, _f) in existing if o not in alive and not o.startswith("run:")})
        if stale:
            self.store.delete_embeddings(stale)
        return HookOutcome("embeddings", True, f"{len(todo)} embedded, {len(stale)} removed ({model})")
