"""Language analyzers, imported by module name: a missing or broken one becomes a gap, not a crash."""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from attrs import frozen

from orbitkb.analysis.facts import LanguageAnalyzer

#: The language packages of this distribution, each exposing ``ANALYZER``.
DEFAULT_MODULES = (
    "orbitkb.analysis.python",
    "orbitkb.analysis.node",
    "orbitkb.analysis.jvm",
    "orbitkb.analysis.golang",
    "orbitkb.analysis.dotnet",
    "orbitkb.analysis.ruby",
    "orbitkb.analysis.php",
    "orbitkb.analysis.rust",
)


@frozen
class LoadedAnalyzer:
    module: str | None  # importable name (lets worker processes load it too); None when injected
    analyzer: LanguageAnalyzer


def load_analyzers(
    modules: Sequence[str] = DEFAULT_MODULES,
) -> tuple[list[LoadedAnalyzer], list[tuple[str, str]]]:
    """(analyzers, problems): problems are (module, reason) for modules that could not be used."""
    loaded: list[LoadedAnalyzer] = []
    problems: list[tuple[str, str]] = []
    for name in modules:
        try:
            module = importlib.import_module(name)
            analyzer = module.ANALYZER
            for attr in ("stack", "version", "suffixes", "parse", "link"):
                getattr(analyzer, attr)
        except Exception as exc:  # noqa: BLE001 - any import-time failure must not stop indexing
            problems.append(
                (name, f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}")
            )
            continue
        loaded.append(LoadedAnalyzer(name, analyzer))
    return loaded, problems


def suffix_table(analyzers: Sequence[LoadedAnalyzer]) -> dict[str, str]:
    """Suffix -> stack; the first analyzer claiming a suffix keeps it."""
    table: dict[str, str] = {}
    for loaded in analyzers:
        for suffix in loaded.analyzer.suffixes:
            table.setdefault(suffix.lower(), loaded.analyzer.stack)
    return table
