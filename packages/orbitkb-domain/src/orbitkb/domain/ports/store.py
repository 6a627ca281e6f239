"""Store ports by role: what the domain reads and writes about the System Knowledge Model.

A store is the union of small roles, so that a second store (PostgreSQL, a remote service) or a
test double implements exactly the roles a use case needs:

- ``FactsReader``   the facts, one kind at a time (also answered by a loaded ``SystemModel``)
- ``ModelReader``   the whole snapshot as one typed ``SystemModel``, and its cheap fingerprint
- ``FactsWriter``   replace or update one repository's snapshot in one transaction
- ``IndexLedger``   what an index run left: indexed files and gaps, per repository
- ``SearchIndex``   bm25 over the search documents
- ``EmbeddingStore`` vectors of the facts (and of past tasks)
- ``HybridSearch``  a batch of bm25 queries and one vector query, read together
- ``Caches``        the analysis cache and the LLM answer cache
- ``RunLog``        index, change-surface and architecture runs, feedback, verifications

``KnowledgeStore`` is all of them plus the store's own life cycle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from attrs import frozen

from orbitkb.domain.model import (
    Api,
    Component,
    Gap,
    Message,
    PersistenceEntity,
    Repository,
    Resource,
    Service,
    ServiceCall,
    ServiceFacts,
    Technology,
)
from orbitkb.domain.ports.analysis import AnalysisCache
from orbitkb.domain.runs import (
    ArchitectureRun,
    ChangeHistory,
    ChangeSurfaceRun,
    Embedding,
    Feedback,
    IndexedFile,
    IndexRun,
    SearchHit,
    ServiceIndexCost,
    VectorHit,
    Verification,
)
from orbitkb.domain.system_model import SystemModel


@frozen
class SearchDocument:
    """A unit of searchable text, built by the domain and indexed by the store."""

    kind: str  # service | api | component | call | message | entity | doc
    ref_id: str
    service_id: str
    service: str
    name: str
    #: Weighted columns: name (highest), keywords, text (lowest).
    name_text: str
    keywords: str
    text: str


@frozen
class SearchQuery:
    """One bm25 query of a batch (``SearchIndex.search_many``): the arguments of ``search``.
    ``snippets=False``: the caller never reads the hits' snippets, which then come back None (the
    same hits otherwise; cutting a snippet costs more than finding the hit)."""

    terms: tuple[str, ...]
    limit: int = 20
    kinds: tuple[str, ...] | None = None
    snippets: bool = True


@frozen
class NearestQuery:
    """The vector query of a hybrid read (``HybridSearch.retrieve``): the arguments of
    ``EmbeddingStore.nearest_embeddings``."""

    model_id: str
    vector: tuple[float, ...]
    limit: int
    floor: float = -1.0
    kinds: tuple[str, ...] | None = None


@frozen
class Retrieved:
    """What one hybrid read found: the answers to the bm25 queries in their order, and the
    nearest vectors (empty when no vector was asked)."""

    keyword: tuple[tuple[SearchHit, ...], ...]
    nearest: tuple[VectorHit, ...] = ()


class FactsReader(Protocol):
    """The facts, one kind at a time, in the orders the store documents. A loaded
    ``SystemModel`` answers the same questions from memory."""

    def get_repository(self, name: str) -> Repository | None: ...
    def list_repositories(self) -> list[Repository]: ...
    def list_services(self, repository: str | None = None) -> list[Service]: ...
    def get_service_by_id(self, service_id: str) -> Service | None: ...
    def list_components(self, service_id: str | None = None) -> list[Component]: ...
    def list_apis(self, service_id: str | None = None) -> list[Api]: ...
    def count_apis(self) -> dict[str, int]:
        """The number of APIs of each service that has any, by service id (counted by the store)."""
        ...
    def list_calls(
        self, from_service_id: str | None = None, to_service_id: str | None = None
    ) -> list[ServiceCall]: ...
    def list_calls_to_target(self, targets: Sequence[str]) -> list[ServiceCall]: ...
    def list_messages(self, service_id: str | None = None, channel: str | None = None) -> list[Message]: ...
    def list_entities(self, service_id: str | None = None) -> list[PersistenceEntity]: ...
    def list_technologies(self, service_id: str | None = None) -> list[Technology]: ...
    def list_resources(self, repository: str | None = None) -> list[Resource]: ...


class ModelReader(Protocol):
    """The whole snapshot at once, for readers that look at many facts per answer."""

    def load_model(self) -> SystemModel:
        """Every repository, service, component, API, call, message, entity, technology and
        resource, read in one consistent transaction, indexed, with the fingerprint it was read at."""
        ...

    def snapshot_fingerprint(self) -> str:
        """Cheap (one small read): changes whenever the facts or their search documents change —
        index, update, reconciliation, enrichment, remove, restore — from any process; equal
        fingerprints mean equal snapshots. (Embeddings and runs are not part of the snapshot; the
        per-service index costs describe_service shows move it, as a read model caches them.)"""
        ...


class FactsWriter(Protocol):
    """Writes of the facts: a repository's snapshot is replaced atomically; enrichment and
    reconciliation rewrite fields of existing facts."""

    def upsert_repository(self, repo: Repository, *, if_indexed: bool = False) -> None:
        """Insert or rewrite the repository. ``if_indexed``: only rewrite one still indexed, else
        RepositoryNotFound and nothing written (a refresh never resurrects a removed repository)."""
        ...

    def remove_repository(self, name: str) -> bool:
        """Delete the repository and its whole snapshot (services and everything they own,
        resources, gaps, indexed files, search documents) in one transaction; False when it was
        not indexed. History stays: index, change-surface and architecture runs, feedback, caches."""
        ...

    def replace_repository_facts(
        self,
        repository: Repository,
        services: Sequence[ServiceFacts],
        resources: Sequence[Resource],
        gaps: Sequence[Gap],
        files: Sequence[IndexedFile],
        documents: Iterable[SearchDocument],
        *,
        if_indexed: bool = False,
    ) -> None:
        """Replace the repository's whole snapshot in one transaction.

        ``documents`` is read once, as it is written (a generator keeps a big snapshot's
        documents from all being held at once).

        ``if_indexed``: only when the repository is still indexed (checked inside the same
        transaction), else RepositoryNotFound and nothing written — an update racing a removal
        must not bring the removed repository back.

        Everything the previous snapshot held goes, including what enrichment wrote over it
        (descriptions, calls the LLM proposed through ``update_calls``): facts are re-extracted,
        and enrichment re-applies its cached answers after a re-index, so no merge happens here.
        Raises StoreError, writing nothing, when a service id belongs to another repository.
        """
        ...

    def update_calls(self, calls: Sequence[ServiceCall]) -> None:
        """Upsert calls by id, in one transaction; a later duplicate id in ``calls`` wins.

        An existing call is rewritten except its id and caller (``from_service_id`` stays):
        reconciliation resolves targets across repositories, enrichment adds reasons. A new id
        is inserted (a call the LLM proposes, provenance llm); its ``from_service_id`` must name
        a stored service, else StoreError and nothing at all is written.
        """
        ...

    # -- enrichment (interpretation layer): rewrites descriptive fields of existing ids only;
    #    unknown ids are skipped, every other attribute keeps its stored value.
    def update_services(self, services: Sequence[Service]) -> None:
        """short_desc, long_desc, desc_provenance."""
        ...

    def update_apis(self, apis: Sequence[Api]) -> None:
        """summary, description, summary_provenance, validations, request_shape, response_shape."""
        ...

    def update_components(self, components: Sequence[Component]) -> None:
        """summary, summary_provenance."""
        ...

    def update_entities(self, entities: Sequence[PersistenceEntity]) -> None:
        """description (engine, fields and the fact's provenance stay)."""
        ...

    def update_messages(self, messages: Sequence[Message]) -> None:
        """description (provider, channel and the fact's provenance stay)."""
        ...


class IndexLedger(Protocol):
    """What the last index of each repository left behind: its files and its gaps."""

    def list_gaps(self, repository: str | None = None) -> list[Gap]: ...
    def list_indexed_files(self, repository: str) -> list[IndexedFile]: ...


class SearchIndex(Protocol):
    def search(
        self, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None
    ) -> list[SearchHit]:
        """bm25 over the search documents. ``terms`` are plain words; the store quotes them."""
        ...

    def search_many(self, queries: Sequence[SearchQuery]) -> list[list[SearchHit]]:
        """Several ``search`` calls in one read, answers in the order of ``queries``."""
        ...


class EmbeddingStore(Protocol):
    def list_embeddings(self, model_id: str, owner_kind: str | None = None) -> list[Embedding]: ...
    def put_embeddings(self, embeddings: Sequence[Embedding]) -> None: ...
    def delete_embeddings(self, owner_ids: Sequence[str]) -> None: ...

    def count_embeddings(self, model_id: str) -> int:
        """How many vectors ``model_id`` made (0: nothing to search, no query to embed)."""
        ...

    def nearest_embeddings(
        self, model_id: str, vector: Sequence[float], limit: int, floor: float = -1.0,
        kinds: Sequence[str] | None = None,
    ) -> list[VectorHit]:
        """The ``limit`` owners closest to ``vector`` by cosine, each with its best field, ranked
        exactly as ``retrieval.rank_nearest`` ranks ``list_embeddings(model_id)`` without the
        vectors of past tasks (owner kind ``run``: history, read through ``change_history``)."""
        ...

    def similarities(self, model_id: str, vector: Sequence[float], owner_kind: str,
                     owner_ids: Sequence[str]) -> dict[str, float]:
        """The cosine of ``vector`` to each listed owner's vector of ``model_id`` (its best field;
        an owner with none of the vector's dimension is left out), rounded to
        ``retrieval.RANK_DIGITS``: exactly ``retrieval.similarities_to`` over
        ``list_embeddings(model_id, owner_kind)``. How an answer compares a task with every past
        task (up to 500 of them)."""
        ...


class Caches(Protocol):
    def analysis_cache(self) -> AnalysisCache: ...
    def get_llm_cache(self, key: str) -> str | None: ...
    def put_llm_cache(self, key: str, value: str) -> None: ...


class RunLog(Protocol):
    """The history of what was run and what users said about it; never part of a snapshot."""

    def add_index_run(self, run: IndexRun) -> int: ...
    def update_index_run(self, run: IndexRun) -> None: ...
    def list_index_runs(self, repository: str | None = None, limit: int = 20) -> list[IndexRun]: ...
    def latest_index_statuses(self) -> dict[str, str]:
        """The status of each repository's newest index run (the highest id), by repository name,
        in one read: what a listing of repositories shows without reading whole runs."""
        ...
    def add_index_costs(self, costs: Sequence[ServiceIndexCost]) -> None:
        """What each service's LLM units cost in one index run, in one transaction that also moves
        the snapshot fingerprint; a cost of a (run, service) already recorded is replaced.
        RunNotFound, nothing written, for an unknown run."""
        ...
    def list_index_costs(
        self, repository: str | None = None, service_id: str | None = None
    ) -> list[ServiceIndexCost]:
        """Per-service LLM costs of index runs, newest run first, then by service name and id."""
        ...

    def add_change_surface_run(self, run: ChangeSurfaceRun) -> int: ...
    def get_change_surface_run(self, run_id: int) -> ChangeSurfaceRun | None: ...
    def list_change_surface_runs(self, limit: int = 100) -> list[ChangeSurfaceRun]: ...
    def add_feedback(self, feedback: Feedback) -> None:
        """One verdict per (run, service): a new one replaces the old (and moves to the end)."""
    def list_feedback(self, service: str | None = None) -> list[Feedback]: ...
    def add_verification(self, verification: Verification) -> int: ...
    def list_verifications(self, run_id: int | None = None) -> list[Verification]: ...

    def change_history(self, limit: int = 500, model_id: str | None = None,
                       task_vector: Sequence[float] | None = None) -> ChangeHistory:
        """In one read: the last ``limit`` change-surface runs (newest first), every feedback (in
        the order given), every verification (newest first) and, with ``model_id``, the task
        vectors of runs (``run:<id>`` -> vector); with ``task_vector`` (a vector of ``model_id``)
        as well, instead of the vectors, each run's cosine to it (``task_similarities``, exactly
        as ``EmbeddingStore.similarities`` computes them over the runs' ids)."""
        ...

    def add_architecture_run(self, run: ArchitectureRun) -> int: ...
    def list_architecture_runs(self, limit: int = 2) -> list[ArchitectureRun]:
        """Most recent first."""
        ...


class HybridSearch(SearchIndex, EmbeddingStore, Protocol):
    def retrieve(self, queries: Sequence[SearchQuery], nearest: NearestQuery | None = None) -> Retrieved:
        """``search_many(queries)`` and, with ``nearest``, ``nearest_embeddings`` of it, in one
        read of one snapshot: what a hybrid request asks before it ranks (a change surface's
        keyword batch and the task's vector) — the same answers as the two calls."""
        ...


class KnowledgeStore(
    FactsReader, ModelReader, FactsWriter, IndexLedger, HybridSearch, EmbeddingStore, Caches, RunLog, Protocol
):
    """The System Knowledge Model's persistence: every role, plus the store's life cycle."""

    def schema_version(self) -> int: ...
    def close(self) -> None: ...
