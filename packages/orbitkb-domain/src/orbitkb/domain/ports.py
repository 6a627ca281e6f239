"""Ports: what the domain needs from the outside world, as typing.Protocols.

Adapters (SQLite, git, static analysis, LLM CLIs, fastembed) implement these; the domain ships an
in-memory fake of each in ``orbitkb.domain.fakes`` for tests and for users' own scripts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

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
from orbitkb.domain.runs import (
    ArchitectureRun,
    ChangeSurfaceRun,
    Embedding,
    Feedback,
    IndexedFile,
    IndexRun,
    LlmUsage,
    SearchHit,
    Verification,
)

# --------------------------------------------------------------------------- sources


@frozen
class SourceEntry:
    """One entry of a source tree. ``kind`` is "file", "symlink_outside" (never followed) or
    "missing_object" (listed by git but absent from a partial clone).

    ``mtime_ns`` is the file's modification time when the tree knows one (a working tree); with
    the size it lets a re-index reuse what it learned from an unchanged file without reading it.
    """

    path: str  # POSIX, relative to the tree root
    size: int
    kind: str = "file"
    mtime_ns: int | None = None


@runtime_checkable
class SourceTree(Protocol):
    """Files of a repository: a working tree on disk or a commit read from git objects."""

    @property
    def root(self) -> str: ...

    @property
    def commit(self) -> str | None: ...

    def list_files(self, prune: Callable[[str], bool] | None = None) -> Iterator[SourceEntry]:
        """Every file under the root, sorted. ``prune(dir_path)`` True skips a folder entirely."""
        ...

    def read_bytes(self, path: str) -> bytes: ...


@runtime_checkable
class GitReader(Protocol):
    def is_repository(self, path: str) -> bool: ...

    def toplevel(self, path: str) -> str | None: ...

    def head_commit(self, path: str) -> str | None:
        """The current commit of the repository containing ``path``, None outside git."""
        ...

    def resolve_commit(self, path: str, rev: str) -> str:
        """Full hash of ``rev``; raises InvalidInput for anything that is not a commit."""
        ...

    def changed_files(self, path: str, since: str, until: str | None = None) -> list[str]:
        """Files changed between ``since`` and ``until`` (default: the working tree), repo-relative."""
        ...

    def tree_at(self, path: str, commit: str) -> SourceTree: ...


# --------------------------------------------------------------------------- analysis


@frozen
class AnalysisRequest:
    repository: str
    #: Force one folder to be indexed as a service: (name, stack). The reference's escape hatch.
    forced_service: tuple[str, str] | None = None


@frozen
class AnalysisResult:
    services: tuple[ServiceFacts, ...]
    resources: tuple[Resource, ...] = ()
    gaps: tuple[Gap, ...] = ()
    files: tuple[IndexedFile, ...] = ()
    files_parsed: int = 0  # files actually parsed (not served from the cache)


class AnalysisCache(Protocol):
    """Per-file parse results keyed by content hash + analyzer version (opaque JSON text)."""

    def get_many(self, keys: Sequence[str]) -> dict[str, str]: ...

    def put_many(self, items: Mapping[str, str]) -> None: ...


class CodeAnalyzer(Protocol):
    """Deterministic fact extraction from a source tree (parsers, manifests, configuration)."""

    @property
    def version(self) -> str: ...

    def analyze(
        self,
        tree: SourceTree,
        request: AnalysisRequest,
        cache: AnalysisCache,
        progress: Callable[[str, int, int], None] | None = None,
    ) -> AnalysisResult: ...


# --------------------------------------------------------------------------- LLM / embeddings


@frozen
class LlmResult:
    data: Mapping[str, Any]
    usage: LlmUsage = LlmUsage()


class LLMBackend(Protocol):
    @property
    def name(self) -> str: ...

    @property
    def model(self) -> str | None: ...

    def generate(self, prompt: str, schema: Mapping[str, Any]) -> LlmResult:
        """Send ``prompt`` and return JSON conforming to ``schema``; raises LlmError."""
        ...


@runtime_checkable
class Cancellable(Protocol):
    """An LLMBackend that can stop its calls in flight (an interrupted run must not keep paying)."""

    def cancel(self) -> None:
        """Stop every ``generate`` running now (they raise LlmCancelled) and refuse later ones."""
        ...


class Embedder(Protocol):
    @property
    def model_id(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[tuple[float, ...]]: ...


# --------------------------------------------------------------------------- store


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


class KnowledgeStore(Protocol):
    """The System Knowledge Model's persistence. One facade over one repository per aggregate."""

    # -- repositories
    def upsert_repository(self, repo: Repository, *, if_indexed: bool = False) -> None:
        """Insert or rewrite the repository. ``if_indexed``: only rewrite one still indexed, else
        RepositoryNotFound and nothing written (a refresh never resurrects a removed repository)."""
        ...

    def get_repository(self, name: str) -> Repository | None: ...
    def list_repositories(self) -> list[Repository]: ...

    def remove_repository(self, name: str) -> bool:
        """Delete the repository and its whole snapshot (services and everything they own,
        resources, gaps, indexed files, search documents) in one transaction; False when it was
        not indexed. History stays: index, change-surface and architecture runs, feedback, caches."""
        ...

    # -- facts: a repository's snapshot is replaced atomically
    def replace_repository_facts(
        self,
        repository: Repository,
        services: Sequence[ServiceFacts],
        resources: Sequence[Resource],
        gaps: Sequence[Gap],
        files: Sequence[IndexedFile],
        documents: Sequence[SearchDocument],
        *,
        if_indexed: bool = False,
    ) -> None:
        """Replace the repository's whole snapshot in one transaction.

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

    def list_services(self, repository: str | None = None) -> list[Service]: ...
    def get_service_by_id(self, service_id: str) -> Service | None: ...
    def list_components(self, service_id: str | None = None) -> list[Component]: ...
    def list_apis(self, service_id: str | None = None) -> list[Api]: ...
    def list_calls(
        self, from_service_id: str | None = None, to_service_id: str | None = None
    ) -> list[ServiceCall]: ...
    def list_calls_to_target(self, targets: Sequence[str]) -> list[ServiceCall]: ...
    def list_messages(self, service_id: str | None = None, channel: str | None = None) -> list[Message]: ...
    def list_entities(self, service_id: str | None = None) -> list[PersistenceEntity]: ...
    def list_technologies(self, service_id: str | None = None) -> list[Technology]: ...
    def list_resources(self, repository: str | None = None) -> list[Resource]: ...
    def list_gaps(self, repository: str | None = None) -> list[Gap]: ...
    def list_indexed_files(self, repository: str) -> list[IndexedFile]: ...

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

    # -- search
    def search(
        self, terms: Sequence[str], limit: int = 20, kinds: Sequence[str] | None = None
    ) -> list[SearchHit]:
        """bm25 over the search documents. ``terms`` are plain words; the store quotes them."""
        ...

    # -- caches
    def analysis_cache(self) -> AnalysisCache: ...
    def get_llm_cache(self, key: str) -> str | None: ...
    def put_llm_cache(self, key: str, value: str) -> None: ...

    # -- runs
    def add_index_run(self, run: IndexRun) -> int: ...
    def update_index_run(self, run: IndexRun) -> None: ...
    def list_index_runs(self, repository: str | None = None, limit: int = 20) -> list[IndexRun]: ...

    def add_change_surface_run(self, run: ChangeSurfaceRun) -> int: ...
    def get_change_surface_run(self, run_id: int) -> ChangeSurfaceRun | None: ...
    def list_change_surface_runs(self, limit: int = 100) -> list[ChangeSurfaceRun]: ...
    def add_feedback(self, feedback: Feedback) -> None:
        """One verdict per (run, service): a new one replaces the old (and moves to the end)."""
    def list_feedback(self, service: str | None = None) -> list[Feedback]: ...
    def add_verification(self, verification: Verification) -> int: ...
    def list_verifications(self, run_id: int | None = None) -> list[Verification]: ...

    def add_architecture_run(self, run: ArchitectureRun) -> int: ...
    def list_architecture_runs(self, limit: int = 2) -> list[ArchitectureRun]:
        """Most recent first."""
        ...

    # -- embeddings
    def list_embeddings(self, model_id: str, owner_kind: str | None = None) -> list[Embedding]: ...
    def put_embeddings(self, embeddings: Sequence[Embedding]) -> None: ...
    def delete_embeddings(self, owner_ids: Sequence[str]) -> None: ...

    # -- meta
    def schema_version(self) -> int: ...
    def close(self) -> None: ...


# --------------------------------------------------------------------------- backups


@frozen
class BackupReport:
    """One copy made or restored: the file, its schema version and what it holds."""

    path: str
    bytes: int
    schema_version: int
    repositories: tuple[str, ...]
    #: restore only: the copy of the database as it was before (nothing is lost), if there was one
    previous_copy: str | None = None


class KnowledgeBackups(Protocol):
    """Consistent copies of the whole knowledge base, taken and restored while others use it."""

    def backup(self, destination: str, overwrite: bool = False) -> BackupReport:
        """Copy the live database to ``destination`` (a consistent snapshot, even mid-write).
        An existing file is refused (RepositoryConflict) unless ``overwrite``."""
        ...

    def restore(self, source: str) -> BackupReport:
        """Replace the live database with ``source`` after checking that it is an orbitkb database
        this version understands (else StoreError / SchemaTooNew and nothing changes); the previous
        database is kept as a copy first."""
        ...

