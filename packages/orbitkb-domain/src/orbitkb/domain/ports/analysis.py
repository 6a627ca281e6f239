"""Analysis ports: deterministic fact extraction from a source tree, and its per-file cache."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from attrs import frozen

from orbitkb.domain.model import Gap, Resource, ServiceFacts
from orbitkb.domain.ports.sources import SourceTree
from orbitkb.domain.runs import IndexedFile


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
