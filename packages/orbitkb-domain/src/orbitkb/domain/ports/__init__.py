"""Ports: what the domain needs from the outside world, as typing.Protocols, one module per role.

Adapters (SQLite, git, static analysis, LLM CLIs, fastembed) implement these; the domain ships an
in-memory fake of each in ``orbitkb.domain.fakes`` for tests and for users' own scripts. Every
name is importable from ``orbitkb.domain.ports``.
"""

from __future__ import annotations

from orbitkb.domain.ports.analysis import AnalysisCache, AnalysisRequest, AnalysisResult, CodeAnalyzer
from orbitkb.domain.ports.backups import BackupReport, KnowledgeBackups
from orbitkb.domain.ports.llm import Cancellable, Embedder, LLMBackend, LlmResult
from orbitkb.domain.ports.sources import CommitRecord, FolderLocator, GitReader, SourceEntry, SourceTree
from orbitkb.domain.ports.store import (
    Caches,
    EmbeddingStore,
    FactsReader,
    FactsWriter,
    HybridSearch,
    IndexLedger,
    KnowledgeStore,
    ModelReader,
    NearestQuery,
    Retrieved,
    RunLog,
    SearchDocument,
    SearchIndex,
    SearchQuery,
)
from orbitkb.domain.system_model import SystemModel

__all__ = [
    "AnalysisCache",
    "AnalysisRequest",
    "AnalysisResult",
    "BackupReport",
    "Caches",
    "Cancellable",
    "CommitRecord",
    "CodeAnalyzer",
    "Embedder",
    "EmbeddingStore",
    "FactsReader",
    "FactsWriter",
    "FolderLocator",
    "GitReader",
    "HybridSearch",
    "IndexLedger",
    "KnowledgeBackups",
    "KnowledgeStore",
    "LLMBackend",
    "LlmResult",
    "ModelReader",
    "NearestQuery",
    "Retrieved",
    "RunLog",
    "SearchDocument",
    "SearchIndex",
    "SearchQuery",
    "SourceEntry",
    "SourceTree",
    "SystemModel",
]
