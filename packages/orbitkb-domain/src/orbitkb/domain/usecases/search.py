"""Search: typed hits over everything textual in the model (names split into words, docs,
descriptions), hybrid when an embedder is installed. No input can raise a search syntax error."""

from __future__ import annotations

from attrs import frozen

from orbitkb.domain.errors import EmptyKnowledgeBase, InvalidInput
from orbitkb.domain.ports import Embedder, KnowledgeStore, ModelReader
from orbitkb.domain.retrieval import HybridRetriever
from orbitkb.domain.runs import SearchHit
from orbitkb.domain.text import words
from orbitkb.domain.usecases._common import facts_of

KINDS = ("service", "api", "component", "call", "message", "entity", "technology", "source")
#: Searched when no kinds are asked for. "source" (the words of a service's code) is the weakest
#: evidence there is: it answers only when nothing else matches, and the note says so.
DEFAULT_KINDS = KINDS[:-1]
MAX_QUERY = 1000


@frozen
class SearchResult:
    query: str
    mode: str  # keyword | hybrid
    hits: tuple[SearchHit, ...]
    note: str | None = None


@frozen
class Search:
    store: KnowledgeStore
    embedder: Embedder | None = None
    models: ModelReader | None = None

    def __call__(self, query: str, limit: int = 20, kinds: tuple[str, ...] | None = None) -> SearchResult:
        if not isinstance(query, str) or not query.strip():
            raise InvalidInput("query must be a non-empty string")
        if len(query) > MAX_QUERY:
            raise InvalidInput(f"query is too long ({len(query)} characters, at most {MAX_QUERY})")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0:
            raise InvalidInput(f"limit must be a positive integer, got {limit!r}")
        limit = min(limit, 100)
        if kinds:
            bad = [k for k in kinds if k not in KINDS]
            if bad:
                raise InvalidInput(f"unknown kinds {bad}", hint="kinds: " + ", ".join(KINDS))
        facts = facts_of(self.store, self.models)
        if not facts.list_repositories():
            raise EmptyKnowledgeBase("the knowledge base is empty")
        retriever = HybridRetriever(self.store, self.embedder, facts)
        terms = words(query) or words(query, keep_stopwords=True)
        hits = retriever.search(query, terms, limit, kinds or DEFAULT_KINDS)
        note = None
        if not hits and not kinds:
            hits = retriever.search(query, terms, limit, ("source",))
            if hits:
                note = "only the services' source vocabulary matches these words (no named fact does)"
        if not hits:
            note = "nothing indexed matches these words; try other words or list_services"
        return SearchResult(query, retriever.mode, tuple(hits), note)
