"""orbitkb.analysis: deterministic static analysis — a source tree in, System Knowledge Model facts out."""

from orbitkb.analysis.analyzer import StaticCodeAnalyzer

__all__ = ["StaticCodeAnalyzer"]
