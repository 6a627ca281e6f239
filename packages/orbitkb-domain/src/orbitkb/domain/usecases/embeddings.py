"""EmbedKnowledge (an index hook): per-field embeddings of every searchable document, keyed by
content hash so that only new or changed text is embedded — each distinct text once, in batches,
reusing a vector already stored for the same text — and vectors of vanished facts are deleted.
An API's name is a bag of identifiers, not a sentence: its vector is composed from its words'."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from attrs import evolve, frozen

from orbitkb.domain.model import Repository, ServiceFacts
from orbitkb.domain.ports import Embedder, KnowledgeStore
from orbitkb.domain.retrieval import _owner_index, embedding_texts, text_hash
from orbitkb.domain.runs import Embedding
from orbitkb.domain.search_docs import documents_for
from orbitkb.domain.text import HTTP_METHODS
from orbitkb.domain.usecases.indexing import HookOutcome

BATCH = 512  # texts per embedder call (the embedder batches them by tokens)
WRITE_BATCH = 1000  # vectors per store write
#: What is embedded: the kinds an agent's task words point at. Calls and components are left to
#: keyword search — embedding them costs minutes on a 300-service system for no measured gain.
KINDS = frozenset({"service", "api", "message", "entity"})
MAX_CHARS = 600  # MiniLM reads ~256 tokens; longer text only costs time
#: (kind, field) whose vector is the unit-length mean of their words' vectors. An API's name is a
#: bag of identifiers ("post orders order id cancel order"), APIs are most of what is embedded, and
#: their names are made of few distinct words: each word is embedded once instead of one text per
#: API — the model's cost grows with the tokens it reads (the 40-service synthetic system: 704 API
#: names, 9,000 tokens; 190 distinct words). The few names of services, channels and entities read
#: as phrases and stay whole, as do prose fields (docstrings, descriptions, READMEs).
COMPOSED_FIELDS = frozenset({("api", "name")})
#: Words of every API's name that say nothing about what it is about: the HTTP method, "api", version
#: and number segments. Left out of a composed vector (unless nothing else is left): they pull every
#: API towards one "an endpoint" direction, close to any task worded as software work.
ROUTE_WORDS = HTTP_METHODS | {"api", "rest", "rpc"}
_ROUTE_SEGMENT = re.compile(r"v?\d+")
#: Marks a composed vector's hash (and the rule's version), so that a name embedded by an older rule
#: is redone once.
COMPOSED_MARK = "words\x1f"


@frozen
class EmbedKnowledge:
    store: KnowledgeStore
    embedder: Embedder
    progress: Callable[[str, int, int], None] | None = None

    def with_progress(self, progress: Callable[[str, int, int], None] | None) -> EmbedKnowledge:
        return evolve(self, progress=progress)

    def prepare(self) -> None:
        """A first index has analysed its files: an embedder that can get ready in the background
        (load its model while the facts are written) is told so; every text of a first index is new."""
        prepare = getattr(self.embedder, "prepare", None)
        if callable(prepare):
            prepare()

    def __call__(self, repo: Repository | None, facts: Sequence[ServiceFacts]) -> HookOutcome:
        model = self.embedder.model_id
        stored = self.store.list_embeddings(model)
        existing = {(e.owner_id, e.field): e.content_hash for e in stored}
        #: vectors already made for a text (same model, same text: same hash), whoever owns them
        known: dict[str, tuple[float, ...]] = {e.content_hash: e.vector for e in stored}
        todo: list[tuple[str, str, str, str]] = []  # kind, owner, field, hash
        texts: dict[str, str] = {}  # hash -> text, for texts no vector exists for yet
        bags: dict[str, list[str]] = {}  # hash -> the words of a composed field no vector exists for
        written: set[str] = set()  # owners in the facts just written: alive
        for doc in documents_for(facts):
            if doc.kind not in KINDS:
                continue
            written.add(doc.ref_id)
            for field, text in embedding_texts(doc.name_text, doc.keywords, doc.text[:MAX_CHARS]).items():
                composed = (doc.kind, field) in COMPOSED_FIELDS
                h = text_hash(model, COMPOSED_MARK + text if composed else text)
                if existing.get((doc.ref_id, field)) != h:
                    todo.append((doc.kind, doc.ref_id, field, h))
                    if h not in known and composed:
                        bags.setdefault(h, telling_words(text))
                    elif h not in known:
                        texts.setdefault(h, text)
        for words in bags.values():
            for word in words:
                if (wh := text_hash(model, word)) not in known:
                    texts.setdefault(wh, word)
        # each distinct new text once; batches of texts of similar length, so that a batch is not
        # padded to one long text (the model's cost grows with the longest text of a batch)
        fresh = sorted(texts, key=lambda h: (len(texts[h]), h))
        for i in range(0, len(fresh), BATCH):
            if self.progress is not None:
                self.progress("embed", i, len(fresh))
            chunk = fresh[i : i + BATCH]
            known.update(zip(chunk, (tuple(v) for v in self.embedder.embed([texts[h] for h in chunk]))))
        for h, words in bags.items():
            known[h] = unit_mean([known[text_hash(model, w)] for w in words])
        for i in range(0, len(todo), WRITE_BATCH):
            self.store.put_embeddings([Embedding(k, o, f, h, model, known[h]) for k, o, f, h in todo[i : i + WRITE_BATCH]])
        # vectors of other owners may be stale: their facts are read only when there are any (never
        # on a first index, where reading every fact back cost a tenth of the step)
        others = {o for (o, _f) in existing if o not in written and not o.startswith("run:")}
        alive = set(_owner_index(self.store)) if others else set()
        stale = sorted(o for o in others if o not in alive)
        if stale:
            self.store.delete_embeddings(stale)
        return HookOutcome("embeddings", True, f"{len(todo)} embedded ({len(fresh)} new texts), "
                                               f"{len(stale)} removed ({model})")


def telling_words(name: str) -> list[str]:
    """The distinct words of an API's name that say what it is about, in order (all of them when
    none does)."""
    words = list(dict.fromkeys(name.split()))
    telling = [w for w in words if w not in ROUTE_WORDS and not _ROUTE_SEGMENT.fullmatch(w)]
    return telling or words


def unit_mean(vectors: Sequence[tuple[float, ...]]) -> tuple[float, ...]:
    """The mean of ``vectors`` scaled to unit length (the direction they share)."""
    total = [math.fsum(column) for column in zip(*vectors, strict=True)]
    norm = math.sqrt(math.fsum(x * x for x in total)) or 1.0
    return tuple(x / norm for x in total)
