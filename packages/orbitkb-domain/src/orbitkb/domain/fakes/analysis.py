"""ScriptedAnalyzer and DictAnalysisCache: the CodeAnalyzer and AnalysisCache ports without
parsing — hand the domain exactly the facts a test or a script wants indexed."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from orbitkb.domain.ports import AnalysisRequest, AnalysisResult, SourceTree


class DictAnalysisCache:
    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def get_many(self, keys: Sequence[str]) -> dict[str, str]:
        return {k: self.items[k] for k in keys if k in self.items}

    def put_many(self, items: Mapping[str, str]) -> None:
        self.items.update(items)


class ScriptedAnalyzer:
    """Returns ``result(request)`` (or a fixed AnalysisResult) for every analyze() call."""

    version = "scripted"

    def __init__(self, result: AnalysisResult | Callable[[AnalysisRequest], AnalysisResult]) -> None:
        self._result = result
        self.requests: list[AnalysisRequest] = []

    def analyze(self, tree: SourceTree, request: AnalysisRequest, cache: object,
                progress: Callable[[str, int, int], None] | None = None) -> AnalysisResult:
        self.requests.append(request)
        return self._result(request) if callable(self._result) else self._result
