"""Factory functions the container calls: each builds one adapter from settings."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

from orbitkb.bootstrap.settings import Settings

if TYPE_CHECKING:  # the ports import the whole model: `orbitkb list` builds its reader without them
    from orbitkb.domain.ports import Embedder, KnowledgeBackups, KnowledgeStore, LLMBackend, SourceTree


def make_store(settings: Settings) -> KnowledgeStore:
    """A ``postgresql://`` URL opens the PostgreSQL store; anything else is an SQLite file."""
    if settings.db_is_url:
        from orbitkb.postgres import PostgresKnowledgeStore

        return PostgresKnowledgeStore(settings.db_file, read_only=settings.read_only)
    from orbitkb.sqlite.store import SqliteKnowledgeStore

    return SqliteKnowledgeStore(settings.db_file, read_only=settings.read_only)


def light_listing(settings: Settings) -> bool:
    """Whether listing services can read with sqlite3 alone: a one-shot read of an SQLite file."""
    return settings.read_only and not settings.db_is_url and settings.db_path != ":memory:"


def make_listing(settings: Settings, store: Any) -> KnowledgeStore:
    """What listing services reads. A one-shot read of an SQLite file answers it with sqlite3 alone
    (SQLAlchemy's import is a third of `orbitkb list`) and opens ``store`` — the container's store
    provider — for anything else; otherwise, or when a test swapped the store, the store itself."""
    if light_listing(settings) and not store.overridden:
        from orbitkb.sqlite.listing import ListingSqliteStore

        return cast("KnowledgeStore", ListingSqliteStore(settings.db_file, full=store))
    built: KnowledgeStore = store()
    return built


def make_backups(settings: Settings) -> KnowledgeBackups:
    """A PostgreSQL server is backed up by a logical copy into an SQLite backup file (both stores
    restore the same files); an SQLite database through SQLite's online backup."""
    if settings.db_is_url:
        from orbitkb.bootstrap.server_backups import ServerBackups

        return ServerBackups(settings, make_store)
    from orbitkb.sqlite.backup import SqliteBackups

    return SqliteBackups(settings.db_file)


def make_analyzer() -> Any:
    from orbitkb.analysis import StaticCodeAnalyzer

    return StaticCodeAnalyzer()


def make_git() -> Any:
    from orbitkb.git import SubprocessGitReader

    return SubprocessGitReader()


def make_folders() -> Any:
    from orbitkb.git import OsFolderLocator

    return OsFolderLocator()


def open_working_tree(path: str) -> SourceTree:
    from orbitkb.git import WorkingTreeSource

    return WorkingTreeSource(path)


class BackendChoice:
    """The LLM backend picked for this process and the one-line notice explaining the choice."""

    def __init__(self, backend: LLMBackend | None, notice: str | None) -> None:
        self.backend = backend
        self.notice = notice

    @property
    def name(self) -> str:
        return self.backend.name if self.backend is not None else "offline"


def make_backend(settings: Settings) -> BackendChoice:
    from orbitkb.llm_cli import detect_backend

    backend, notice = detect_backend(
        settings.backend, model=settings.model, claude_bare=settings.claude_bare,
        codex_api_key=settings.codex_api_key, timeout=settings.llm_timeout,
    )
    return BackendChoice(backend, notice)


def make_embedder(settings: Settings) -> Embedder | None:
    """The local embedder when installed and loadable offline, else None (keyword-only search)."""
    if settings.embedder == "off":
        return None
    try:
        from orbitkb.fastembed import load_embedder
    except ImportError:
        return None
    try:
        return load_embedder(None if settings.embedder == "auto" else settings.embedder)
    except ImportError:
        return None  # the packaged model is not installed: keyword-only search, same answers' shape
    except Exception as exc:  # a missing model must never break keyword search
        print(f"orbitkb: embeddings disabled ({exc})", file=sys.stderr)
        return None


def index_hooks(architecture: Any, embedder: Embedder | None, store: KnowledgeStore, embed: Any,
                backend: BackendChoice, enrich: Any, git: Any, settings: Settings) -> list[Any]:
    """What runs after the facts of an index are written: smells, then the LLM semantic layer (when
    a backend is available), then embeddings of everything (when a local embedder is installed)."""
    hooks = [architecture]
    if backend.backend is not None:
        hooks.append(enrich(store=store, backend=backend.backend, open_tree=open_working_tree, git=git,
                            jobs=settings.jobs))
    if embedder is not None:
        hooks.append(embed(store=store, embedder=embedder))
    return hooks
