"""JVM analyzer (Java and Kotlin, Spring Boot and friends) built on tree-sitter.

``ANALYZER.parse(path, text)`` reads one ``.java``/``.kt`` file into a JSON-able dict;
``ANALYZER.link(ctx, parsed)`` turns a service's parsed files into ``LinkedFacts``.
"""

from orbitkb.analysis.jvm.analyzer import JvmAnalyzer

ANALYZER = JvmAnalyzer()

__all__ = ["ANALYZER", "JvmAnalyzer"]
